import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config';

describe('the Temporal UI link', () => {
  it("follows a local dev server's port (its UI listens 1000 above the frontend)", () => {
    expect(loadConfig({ TEMPORAL_ADDRESS: '127.0.0.1:7311' }).temporal.uiUrl).toBe('http://127.0.0.1:8311');
    expect(loadConfig({ TEMPORAL_ADDRESS: '127.0.0.1:7233' }).temporal.uiUrl).toBe('http://127.0.0.1:8233');
    expect(loadConfig({}).temporal.uiUrl).toBe('http://127.0.0.1:8233');
  });

  it('refuses a TEMPORAL_UI_URL that is no http(s) URL (it becomes a link)', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>']) expect(() => loadConfig({ TEMPORAL_UI_URL: url }), url).toThrow(ConfigError);
    expect(loadConfig({ TEMPORAL_UI_URL: 'https://temporal.example.org/' }).temporal.uiUrl).toBe('https://temporal.example.org');
  });
});
