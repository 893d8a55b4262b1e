import { type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedUrlError, FetchTimeoutError, isRetryablePageError, PageFetchError, PageTooLargeError, UnsupportedContentTypeError } from '../../src/pages/errors';
import { readPage, type ReadPageOptions } from '../../src/pages/read-page';
import { type Resolver } from '../../src/pages/url-guard';
import { fixture, startFixtureServer, type FixtureServer } from '../fixtures/http/fixture-server';

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const FIXTURE_HOST = 'news.fixture.test';

let server: FixtureServer;
let lookups: string[] = [];
/** `.test` names never resolve through real DNS: a successful fetch proves the socket used the checked address. */
const resolver: Resolver = async (hostname) => {
  lookups.push(hostname);
  if (hostname !== FIXTURE_HOST && hostname !== 'localhost') throw new Error(`ENOTFOUND ${hostname}`);
  return [{ address: '127.0.0.1', family: 4 }];
};

const viaFixtureHost = (path: string) => `http://${FIXTURE_HOST}:${server.port}${path}`;
const trusted: ReadPageOptions = { allowList: [FIXTURE_HOST], resolve: (hostname) => resolver(hostname), timeoutMs: 5_000 };

function redirectTo(location: string) {
  return { status: 302, headers: { location }, body: '' };
}

let abortedStreams = 0;
function streamForever(response: ServerResponse) {
  response.writeHead(200, HTML);
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed || sent++ > 200) return void clearInterval(timer);
    response.write(chunk);
  }, 1);
  response.on('close', () => {
    if (!response.writableFinished) abortedStreams++;
  });
}

beforeAll(async () => {
  server = await startFixtureServer({
    'GET /article': { headers: HTML, fixture: 'page-article.html' },
    'GET /plain': { headers: { 'content-type': 'text/plain' }, body: '  Plain evidence text.\n' },
    'GET /xhtml': { headers: { 'content-type': 'application/xhtml+xml' }, body: '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><p>XHTML body.</p></body></html>' },
    'GET /latin1': { headers: { 'content-type': 'text/plain; charset=ISO-8859-1' }, body: Buffer.from('café crème', 'latin1') },
    'GET /paper.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7' },
    'GET /data.json': { headers: { 'content-type': 'application/json' }, body: '{}' },
    'GET /big': { headers: { ...HTML, 'content-length': String(2 * 1024 * 1024) }, body: Buffer.alloc(2 * 1024 * 1024, 'a') },
    'GET /endless': (_request, response) => streamForever(response),
    'GET /slow-headers': () => undefined,
    'GET /slow-body': (_request, response) => void response.writeHead(200, HTML).write('<p>start'),
    'GET /missing': { status: 404, body: 'not found' },
    'GET /down': { status: 503, body: 'maintenance' },
    'GET /relative-redirect': redirectTo('/article'),
    'GET /to-loopback': redirectTo('http://127.0.0.1:1/article'),
    'GET /to-metadata': redirectTo('http://169.254.169.254/latest/meta-data/iam/security-credentials/'),
    'GET /to-localhost': redirectTo('http://localhost/article'),
    'GET /to-file': redirectTo('file:///etc/passwd'),
  });
  server.route('GET /to-loopback', redirectTo(`http://127.0.0.1:${server.port}/article`));
  for (let hop = 1; hop <= 6; hop++) server.route(`GET /hop/${hop}`, redirectTo(hop === 1 ? '/article' : `/hop/${hop - 1}`));
});
afterAll(() => server.close());

describe('readPage against a local server', () => {
  it('without an allow-list the local fixture server is blocked', async () => {
    await expect(readPage(`${server.baseUrl}/article`)).rejects.toBeInstanceOf(BlockedUrlError);
    const before = server.requests.length;
    await expect(readPage(viaFixtureHost('/article'), { resolve: resolver })).rejects.toBeInstanceOf(BlockedUrlError);
    expect(server.requests.length).toBe(before);
  });

  it('with 127.0.0.1 allow-listed it reads the main text', async () => {
    const page = await readPage(`${server.baseUrl}/article`, { allowList: ['127.0.0.1'] });
    expect(page).toMatchObject({ url: `${server.baseUrl}/article`, title: 'Eiffel Tower grows six metres with new antenna', contentType: 'text/html' });
    expect(page.bytes).toBe(fixture('page-article.html').length);
    expect(page.text).toContain('bringing its total height to 330 metres');
    expect(page.text).not.toContain('mattress');
    expect(Date.parse(page.fetchedAt)).not.toBeNaN();
  });

  it('connects to the address it checked (pinned), resolving once per hop', async () => {
    lookups = [];
    const page = await readPage(viaFixtureHost('/relative-redirect'), trusted);
    expect(page.url).toBe(viaFixtureHost('/article'));
    expect(lookups).toEqual([FIXTURE_HOST, FIXTURE_HOST]);
  });

  it.each([
    ['/to-loopback', '127.0.0.1'],
    ['/to-metadata', '169.254.169.254'],
    ['/to-localhost', 'localhost'],
    ['/to-file', 'file:'],
  ])('re-checks every redirect hop: %s is blocked', async (path, mention) => {
    const err = await readPage(viaFixtureHost(path), trusted).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedUrlError);
    expect((err as Error).message).toContain(mention);
  });

  it('follows at most 5 redirects', async () => {
    await expect(readPage(viaFixtureHost('/hop/5'), trusted)).resolves.toMatchObject({ url: viaFixtureHost('/article') });
    const err = await readPage(viaFixtureHost('/hop/6'), trusted).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PageFetchError);
    expect((err as Error).message).toContain('more than 5 redirects');
  });

  it('rejects a declared length over maxBytes', async () => {
    await expect(readPage(viaFixtureHost('/big'), { ...trusted, maxBytes: 1024 * 1024 })).rejects.toBeInstanceOf(PageTooLargeError);
  });

  it('aborts a stream once it passes maxBytes', async () => {
    await expect(readPage(viaFixtureHost('/endless'), { ...trusted, maxBytes: 256 * 1024 })).rejects.toBeInstanceOf(PageTooLargeError);
    await expect.poll(() => abortedStreams).toBe(1);
  });

  it.each([
    ['/paper.pdf', 'application/pdf', /PDF reading is not supported/],
    ['/data.json', 'application/json', /application\/json/],
  ])('rejects %s (%s)', async (path, contentType, message) => {
    const err = await readPage(viaFixtureHost(path), trusted).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedContentTypeError);
    expect((err as UnsupportedContentTypeError).contentType).toBe(contentType);
    expect((err as Error).message).toMatch(message);
    expect(isRetryablePageError(err)).toBe(false);
  });

  it('reads text/plain, XHTML and declared charsets', async () => {
    await expect(readPage(viaFixtureHost('/plain'), trusted)).resolves.toMatchObject({ title: '', text: 'Plain evidence text.', contentType: 'text/plain' });
    await expect(readPage(viaFixtureHost('/xhtml'), trusted)).resolves.toMatchObject({ title: 'X', text: 'XHTML body.' });
    await expect(readPage(viaFixtureHost('/latin1'), trusted)).resolves.toMatchObject({ text: 'café crème', bytes: 10 });
  });

  it.each(['/slow-headers', '/slow-body'])('times out on %s', async (path) => {
    const err = await readPage(viaFixtureHost(path), { ...trusted, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect(isRetryablePageError(err)).toBe(true);
  });

  it('reports HTTP errors with their status', async () => {
    const missing = await readPage(viaFixtureHost('/missing'), trusted).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404 });
    expect(isRetryablePageError(missing)).toBe(false);
    const down = await readPage(viaFixtureHost('/down'), trusted).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(PageFetchError);
    expect(isRetryablePageError(down)).toBe(true);
  });

  it('rejects strings that are not absolute URLs', async () => {
    await expect(readPage('/relative/path')).rejects.toBeInstanceOf(BlockedUrlError);
  });
});
