/** Minimal SVG/HTML building: escaped text and attributes, no DOM. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export type Attributes = Record<string, string | number | undefined>;

function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXml(typeof value === 'number' ? round(value) : String(value))}"`)
    .join('');
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** An element; children are already-built markup. */
export function tag(name: string, attrs: Attributes = {}, ...children: string[]): string {
  return children.length === 0 ? `<${name}${attributes(attrs)}/>` : `<${name}${attributes(attrs)}>${children.join('')}</${name}>`;
}

export function text(x: number, y: number, content: string, attrs: Attributes = {}): string {
  return tag('text', { x, y, ...attrs }, escapeXml(content));
}

export function svg(width: number, height: number, title: string, ...children: string[]): string {
  return tag(
    'svg',
    { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title, class: 'chart' },
    tag('title', {}, escapeXml(title)),
    ...children,
  );
}
