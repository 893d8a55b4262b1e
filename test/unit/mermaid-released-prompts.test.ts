import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mcpToolNames, mermaidReleasedPromptsFrom, pythonStringConstant } from '../../src/methods/mermaid/released-source';
import { mermaidSettingsSchema } from '../../src/methods/mermaid/settings-schema';
import { mermaidReleasedDecomposeTask, mermaidReleasedReactTask } from '../../src/methods/mermaid/released-tasks';
import { extractJsonFromText, releasedDecompositionOf } from '../../src/methods/mermaid/sandbox/released-json';
import { interpretReleasedReply, releasedAnswerIsTrue, releasedKeywords, releasedToolLines, renderReleasedReact } from '../../src/methods/mermaid/sandbox/released-prompts';
import { hostOf, releasedArgumentError, releasedObservation, releasedToolText } from '../../src/methods/mermaid/sandbox/released-observation';
import { pythonFormat, pythonJsonDumps, pythonRepr, pythonStrip } from '../../src/methods/mermaid/sandbox/python-text';

const CHECKOUT = '/work/parity-refs/mermaid';
const HAVE_CHECKOUT = fs.existsSync(`${CHECKOUT}/main.py`);
/** The tool names main.py lists, recorded from the release's three MCP servers (fastmcp 2.12.3, list_tools). */
const RELEASED_TOOL_NAMES = 'search_google, search_wikipedia, get_article, get_summary, summarize_article_for_query, summarize_article_section, extract_key_facts, get_related_topics, get_sections, search_google_scholar';
const TOOLS = RELEASED_TOOL_NAMES.split(', ');

/** A prompt as the parity proxy records it (eval/bench/parity/recording-proxy.ts renderMessages). */
const recorded = (messages: { role: string; content: string }[]) => messages.map((m) => `[${m.role}]\n${m.content}`).join('\n');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Prompts the release sent for Factcheck-Bench claim fcbench-3 (qwen2.5-coder-0.5b, temperature 0), kept as
// hashes (the release has no license): eval/bench/results/parity-mermaid-factcheck_bench.json at main abd4833.
const FCBENCH_3 = {
  claim: 'In 1980, Justice William O. Douglas was still alive.',
  decomposeSha256: '2d63d8579aa91dda0ba7a32c8f302d75e1c7b069488bfbf07e02dbc970f58fef',
  decomposerAnswer: '```json\n{\n  "triplets": [\n    {"subject": "Justice William O. Douglas", "relation": "was", "object": "still alive"}\n  ],\n  "topic": "Justice William O. Douglas"\n}\n```',
  firstReactSha256: '8696f91dea38b949be82fc42b62c574cc982c9d5f56eb5a5beb69d53d36d1ea6',
};

describe.skipIf(!HAVE_CHECKOUT)(`MERMAID's released prompts from ${CHECKOUT} (skipped: no checkout of the release there)`, () => {
  it('reads both prompts and the MCP tool names in main.py’s server order from the pinned checkout', () => {
    const released = mermaidReleasedPromptsFrom(CHECKOUT);
    expect(released.toolNames).toEqual(TOOLS);
    expect(released.react).toContain('{{"thought"');
    expect(released.decompose.endsWith('\n')).toBe(true);
  });

  it('renders the decomposer and the first ReAct prompt to the characters the release sent (sha256 of the recorded prompts)', () => {
    const released = mermaidReleasedPromptsFrom(CHECKOUT);
    const decompose = mermaidReleasedDecomposeTask.render(mermaidReleasedDecomposeTask.variables.parse({ template: released.decompose, claim: FCBENCH_3.claim }));
    expect(sha256(recorded(decompose as { role: string; content: string }[]))).toBe(FCBENCH_3.decomposeSha256);
    const { decomposition } = releasedDecompositionOf(FCBENCH_3.decomposerAnswer);
    const variables = { template: released.react, claim: FCBENCH_3.claim, background: pythonJsonDumps(decomposition), history: [], toolNames: released.toolNames };
    const react = mermaidReleasedReactTask.render(mermaidReleasedReactTask.variables.parse(variables));
    expect(sha256(recorded(react as { role: string; content: string }[]))).toBe(FCBENCH_3.firstReactSha256);
    expect(mermaidReleasedReactTask.answer).toBe('text');
    expect(mermaidReleasedReactTask.maxTokens).toBe(15000);
  });

  it('takes releasedPromptsFrom in the settings and turns it into releasedPrompts; a wrong path is a one-line settings error', () => {
    const settings = mermaidSettingsSchema.parse({ releasedPromptsFrom: CHECKOUT, fidelity: 'code-compat' });
    expect(settings).not.toHaveProperty('releasedPromptsFrom');
    expect(settings.releasedPrompts?.commit).toBe('1656b48bcae7e11dca18a252d448bf08e3c49751');
    const wrong = mermaidSettingsSchema.safeParse({ releasedPromptsFrom: '/nonexistent/mermaid' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.message).toMatch(/is not a directory/);
  });
});

describe("Python's text semantics the release depends on", () => {
  it('str.format: {{ }} become braces, named fields are replaced, values are not re-read', () => {
    expect(pythonFormat('{{"a": {x}}} {y}', { x: '{y}', y: '1' })).toBe('{"a": {y}} 1');
  });

  it('json.dumps(ensure_ascii=False): ", " and ": " separators, key order kept, non-ASCII kept, controls escaped', () => {
    expect(pythonJsonDumps({ triplets: [{ subject: 'Zoë', object: 'a"b\n' }], topic: 'x', n: 2, f: 1.5, t: true, z: null })).toBe(
      '{"triplets": [{"subject": "Zoë", "object": "a\\"b\\n"}], "topic": "x", "n": 2, "f": 1.5, "t": true, "z": null}',
    );
  });

  it("repr(str) as Python writes it (recorded from Python 3.11), inside the MCP result's TextContent repr", () => {
    expect(pythonRepr('{"a": "it\'s\\n é"}')).toBe(`'{"a": "it\\'s\\\\n é"}'`);
    expect(pythonRepr("it's")).toBe(`"it's"`);
    expect(pythonRepr('tab\there\u0001\u00a0\u2028')).toBe("'tab\\there\\x01\\xa0\\u2028'");
    // str([TextContent(type='text', text='{"a": "it\'s\\n é"}')]) with mcp 1.14.1:
    expect(releasedObservation('{"a": "it\'s\\n é"}')).toBe(`[TextContent(type='text', text='{"a": "it\\'s\\\\n é"}', annotations=None, meta=None)]`);
  });

  it('str.strip() removes what Python counts as whitespace (not a BOM, but \\x1c)', () => {
    expect(pythonStrip('\x1c\u3000 x \n')).toBe('x');
    expect(pythonStrip('\ufeffx')).toBe('\ufeffx');
  });
});

describe("main.py's reading of plain-text answers", () => {
  it('extract_json_from_text: whole text, fenced, an object with "answer", one with "action", then the first balanced object that parses', () => {
    expect(extractJsonFromText(' {"answer": "False"} ')).toEqual({ value: { answer: 'False' } });
    expect(extractJsonFromText('```json\n{"answer": "True"}\n```')).toEqual({ value: { answer: 'True' } });
    expect(extractJsonFromText('So {"thought": "t", "answer": "True"} done {"x": 1}')).toEqual({ value: { thought: 't', answer: 'True' } });
    expect(extractJsonFromText('I will {"thought": "t", "action": {"name": "search_google", "input": "q"}} now')).toEqual({
      value: { thought: 't', action: { name: 'search_google', input: 'q' } },
    });
    expect(extractJsonFromText('{bad} then {"a": {"b": 1}}')).toEqual({ value: { a: { b: 1 } } });
    expect(extractJsonFromText('no json here')).toBeUndefined();
  });

  it('the decomposer: fences stripped, else the code’s fallback {"triplets": [], "topic": "unknown"}', () => {
    expect(releasedDecompositionOf(FCBENCH_3.decomposerAnswer).failed).toBe(false);
    expect(releasedDecompositionOf('Triplets: none')).toEqual({ decomposition: { triplets: [], topic: 'unknown' }, failed: true });
    expect(releasedKeywords({ triplets: [{ subject: ' Eiffel Tower ', relation: 'is', object: 'Paris' }, { subject: '', object: 'x' }] })).toEqual(['eiffel tower', 'paris', 'x']);
  });

  it('a reply becomes the history lines react_loop appends, with its tool_mapping and unknown-tool line', () => {
    const claim = 'C';
    expect(interpretReleasedReply('{"thought": "ok", "answer": "False"}', claim, TOOLS)).toMatchObject({ kind: 'answer', answer: 'False', lines: ['Thought: ok', 'Answer: False'] });
    expect(interpretReleasedReply('{"thought": "ok", "answer": true}', claim, TOOLS).lines).toEqual(['Thought: ok', 'Answer: True']);
    expect(interpretReleasedReply('{"thought": "t", "action": {"name": "Google", "input": "q"}}', claim, TOOLS)).toMatchObject({ kind: 'tool', tool: 'search_google', input: 'q', lines: ['Thought: t'] });
    expect(interpretReleasedReply('{"thought": "t", "action": {"name": "wikipedia"}}', claim, TOOLS)).toMatchObject({ kind: 'tool', tool: 'search_wikipedia', input: 'C' });
    expect(interpretReleasedReply('{"thought": "t", "action": {"name": "bing", "input": "q"}}', claim, TOOLS).lines).toEqual(['Thought: t', `Action: Tool 'bing' not found. Available: ${RELEASED_TOOL_NAMES}`]);
    expect(interpretReleasedReply('{"thought": "t", "action": {"name": "None"}}', claim, TOOLS).lines).toEqual(['Thought: t', 'Action: No tool needed, continuing reasoning.']);
    expect(interpretReleasedReply('{"thought": "t"}', claim, TOOLS)).toMatchObject({ kind: 'thought', lines: ['Thought: t'] });
    expect(interpretReleasedReply(`x${'é'.repeat(1200)}`, claim, TOOLS).lines[0]).toBe(`Thought: x${'é'.repeat(999)}`);
    expect(interpretReleasedReply('', claim, TOOLS)).toMatchObject({ kind: 'empty', lines: [] });
    expect(releasedToolLines('search_google', 'q', 'o'.repeat(2500))).toEqual(['Action: Used search_google with input: q', `Observation: ${'o'.repeat(2000)}`]);
  });

  it('scores answers as utils.calculate_metrics does: "true", "1", "yes" in any case, or a JSON true', () => {
    expect(['True', 'YES', '1', true].map(releasedAnswerIsTrue)).toEqual([true, true, true, true]);
    expect(['False', 'Supported', 'true.', false, null].map(releasedAnswerIsTrue)).toEqual([false, false, false, false, false]);
  });

  it('the ReAct template gets "None yet." for an empty history and the lines joined by newlines otherwise', () => {
    const template = 'Q {query} B {background} H {history} T {tools} {{x}}';
    expect(renderReleasedReact(template, { claim: 'c', background: '{}', history: [], toolNames: ['a', 'b'] })).toBe('Q c B {} H None yet. T a, b {x}');
    expect(renderReleasedReact(template, { claim: 'c', background: '{}', history: ['l1', 'l2'], toolNames: ['a'] })).toBe('Q c B {} H l1\nl2 T a {x}');
  });
});

describe('reading Python source for the released constants', () => {
  it('concatenates adjacent literals, decodes escapes, reads triple-quoted strings, and lists @mcp.tool names in order', () => {
    const source = 'X = (\n  "a\\n"  # note\n  "b \\"q\\"\\\\"\n)\nY = """l1\n{{"k": 1}}\n"""\n';
    expect(pythonStringConstant(source, 'X')).toBe('a\nb "q"\\');
    expect(pythonStringConstant(source, 'Y')).toBe('l1\n{{"k": 1}}\n');
    const server = '@mcp.tool(\n    name="first", description="d (x)"\n)\ndef one(q): ...\n\n@mcp.tool()\nasync def second(q): ...\n';
    expect(mcpToolNames(server, 's.py')).toEqual(['first', 'second']);
  });
});

describe("tool observations as the release's MCP servers show them", () => {
  // Recorded by running the release's search_tool.py and wikipedia_tool.py (fastmcp 2.12.3, mcp 1.14.1, through
  // fastmcp's Client as main.py's ClientSession reads them) on canned searchapi.io / MediaWiki answers shaped as
  // eval/bench/parity/mermaid-evidence-server.ts sends them for these results.
  const RECORDED = {
    "search_google": "[TextContent(type='text', text='{\"query\":\"Eiffel Tower\",\"results\":[{\"title\":\"Eiffel Tower – Wikipédia\",\"link\":\"https://fr.example.org/wiki/Tour_Eiffel\",\"snippet\":\"La tour \\\\\"Eiffel\\\\\" est une tour\\\\nde fer puddlé, it\\'s 330 m.\",\"source\":\"fr.example.org\",\"position\":1},{\"title\":\"Tower\",\"link\":\"https://www.example.com/t?a=1&b=2\",\"snippet\":\"Completed in 1889.\",\"source\":\"www.example.com\",\"position\":2}],\"total\":2,\"search_metadata\":{\"time\":0}}', annotations=None, meta=None)]",
    "search_wikipedia": "[TextContent(type='text', text='{\"query\":\"Eiffel Tower\",\"results\":[{\"title\":\"Eiffel Tower\",\"snippet\":\"The <span class=\\\\\"searchmatch\\\\\">Eiffel</span> Tower is in Paris.\",\"pageid\":\"hover:Eiffel Tower\",\"wordcount\":0,\"timestamp\":\"\"},{\"title\":\"Gustave Eiffel\",\"snippet\":\"Engineer, born 1832 – Dijon\",\"pageid\":\"fm2:Gustave Eiffel\",\"wordcount\":0,\"timestamp\":\"\"}],\"status\":\"success\",\"count\":2,\"language\":\"en\"}', annotations=None, meta=None)]"
  };

  it("rebuilds search_google's text from verity's web_search data, character for character", () => {
    const data = {
      query: 'Eiffel Tower',
      results: [
        { title: 'Eiffel Tower – Wikipédia', url: 'https://fr.example.org/wiki/Tour_Eiffel', snippet: "La tour \"Eiffel\" est une tour\nde fer puddlé, it's 330 m.", source: 'recorded', position: 1 },
        { title: 'Tower', url: 'https://www.example.com/t?a=1&b=2', snippet: 'Completed in 1889.', source: 'recorded', position: 2 },
      ],
      total: 2,
    };
    expect(releasedObservation(releasedToolText('search_google', data)!)).toBe(RECORDED.search_google);
  });

  it("rebuilds search_wikipedia's text from verity's search_wikipedia data; other tools keep verity's text", () => {
    const data = {
      query: 'Eiffel Tower',
      results: [
        { title: 'Eiffel Tower', snippet: 'The <span class="searchmatch">Eiffel</span> Tower is in Paris.', pageid: 'hover:Eiffel Tower' },
        { title: 'Gustave Eiffel', snippet: 'Engineer, born 1832 – Dijon', pageid: 'fm2:Gustave Eiffel' },
      ],
      status: 'success',
      count: 2,
      language: 'en',
    };
    expect(releasedObservation(releasedToolText('search_wikipedia', data)!)).toBe(RECORDED.search_wikipedia);
    expect(releasedToolText('search_wikipedia', { ...data, results: [] })).toBeUndefined();
    expect(releasedToolText('get_article', { title: 'x' })).toBeUndefined();
    expect(['https://User@WWW.Example.com:8080/x', 'http://[::1]/y', 'not a url'].map(hostOf)).toEqual(['www.example.com', '[::1]', '']);
  });

  it('refuses {"query": …} for the Wikipedia tools that require a title, with the text the release showed (fcbench-122, extract_key_facts)', () => {
    const shown = `[TextContent(type='text', text="Input validation error: 'title' is a required property", annotations=None, meta=None)]`;
    for (const tool of ['get_article', 'get_summary', 'summarize_article_for_query', 'summarize_article_section', 'extract_key_facts', 'get_related_topics', 'get_sections']) {
      expect(releasedObservation(releasedArgumentError(tool)!)).toBe(shown);
    }
    expect(['search_google', 'search_wikipedia', 'search_google_scholar'].map(releasedArgumentError)).toEqual([undefined, undefined, undefined]);
  });
});
