/**
 * Embed flags and the "Copy embed code" snippet (src/share/embed.ts).
 */
import { describe, expect, it } from 'vitest';
import { EMBED_SANDBOX, embedSnippet, embedUrl, parseEmbedFlags, parseOrigin } from '../../src/share/embed';

describe('embed flags', () => {
  it('reads every flag', () => {
    expect(
      parseEmbedFlags(
        '#v=2&p=x&embed=1&panels=path,charts&controls=none&autoplay=1&t=2.5s&origin=https://docs.example.com',
      ),
    ).toEqual({
      flags: {
        embed: true,
        panels: ['path', 'charts'],
        controls: 'none',
        autoplay: true,
        startNs: 2_500_000_000,
        origin: 'https://docs.example.com',
      },
      notes: [],
    });
  });

  it('defaults: full lab with full controls; embedded with minimal controls', () => {
    expect(parseEmbedFlags('')).toEqual({
      flags: { embed: false, controls: 'full', autoplay: false },
      notes: [],
    });
    expect(parseEmbedFlags('#embed=1').flags).toEqual({ embed: true, controls: 'minimal', autoplay: false });
  });

  it('drops each invalid flag on its own, with a note', () => {
    const r = parseEmbedFlags('#embed=1&controls=most&autoplay=yes&origin=https://docs.example.com/guide');
    expect(r.flags).toEqual({ embed: true, controls: 'minimal', autoplay: false });
    expect(r.notes).toEqual([
      'controls: "most" is not none, minimal, full; ignored',
      'autoplay: "yes" is not 1 or 0; ignored',
      'origin: "https://docs.example.com/guide" is not an origin like https://docs.example.com; the host-page API stays off',
    ]);
  });

  it('the host-page origin needs embed=1', () => {
    const r = parseEmbedFlags('#origin=https://docs.example.com');
    expect(r.flags.origin).toBeUndefined();
    expect(r.notes).toEqual(['origin: only used with embed=1; the host-page API stays off']);
  });

  it('accepts only bare http(s) origins', () => {
    expect(parseOrigin('https://docs.example.com')).toBe('https://docs.example.com');
    expect(parseOrigin('http://localhost:8080')).toBe('http://localhost:8080');
    for (const bad of [
      '*',
      'null',
      'https://docs.example.com/',
      'HTTPS://DOCS.EXAMPLE.COM',
      'javascript:alert(1)',
      'file:///x',
      'https://u:p@x.com',
      'https://x.com:443',
      'docs.example.com',
    ]) {
      expect(parseOrigin(bad), bad).toBeNull();
    }
  });
});

describe('embed snippet', () => {
  it('is an iframe with title, size and a sandbox that lets the module worker run', () => {
    expect(
      embedSnippet('https://lab.example.com/#v=2&p=exp1&t=9s&embed=0', {
        title: 'Per-flow limit: one TCP flow',
        panels: ['path', 'charts'],
        controls: 'minimal',
        autoplay: true,
        startNs: 1_000_000_000,
        origin: 'https://docs.example.com',
      }),
    ).toBe(
      '<iframe src="https://lab.example.com/#v=2&amp;p=exp1&amp;embed=1&amp;panels=path,charts&amp;controls=minimal&amp;autoplay=1&amp;t=1s&amp;origin=https://docs.example.com" title="Per-flow limit: one TCP flow" width="800" height="600" sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox" loading="lazy" style="border: 0"></iframe>',
    );
    expect(EMBED_SANDBOX.split(' ')).toEqual(expect.arrayContaining(['allow-scripts', 'allow-same-origin']));
  });

  it('escapes attribute values and checks sizes', () => {
    const s = embedSnippet('https://lab.example.com/', {
      title: '"><script>alert(1)</script>',
      width: '100%',
      height: 480,
    });
    expect(s).toBe(
      '<iframe src="https://lab.example.com/#embed=1" title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" width="100%" height="480" sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox" loading="lazy" style="border: 0"></iframe>',
    );
    expect(() => embedSnippet('https://lab.example.com/', { width: 5 })).toThrow(
      'width must be 100–4000 pixels or a percentage, not 5',
    );
    expect(() => embedSnippet('javascript:alert(1)')).toThrow('not an http(s) URL');
    expect(() => embedSnippet('https://lab.example.com/', { origin: '*' })).toThrow('"*" is not an origin');
  });

  it('writes the start time in seconds, as the share link does (t=2.0665s, not t=2066500us)', () => {
    const url = embedUrl('https://lab.example.com/#v=2&s=q64FAA', { startNs: 2_066_500_000 });
    expect(new URL(url).hash).toContain('&t=2.0665s');
    expect(embedUrl('https://lab.example.com/#v=2', { startNs: 250_000_000 })).toContain('t=0.25s');
    expect(parseEmbedFlags(new URL(url).hash).flags.startNs).toBe(2_066_500_000);
  });

  it('the URL it embeds reads back to the same flags', () => {
    const url = embedUrl('https://lab.example.com/#v=2&s=q64FAA', {
      panels: ['terminal'],
      controls: 'full',
      startNs: 250_000_000,
    });
    expect(parseEmbedFlags(new URL(url).hash)).toEqual({
      flags: { embed: true, panels: ['terminal'], controls: 'full', autoplay: false, startNs: 250_000_000 },
      notes: [],
    });
  });

  it("chart= picks the chart panel's view, and goes in the embed code", () => {
    expect(parseEmbedFlags('#embed=1&panels=path,chart,terminal&chart=pps')).toEqual({
      flags: {
        embed: true,
        panels: ['path', 'chart', 'terminal'],
        chart: 'pps',
        controls: 'minimal',
        autoplay: false,
      },
      notes: [],
    });
    const url = embedUrl('https://lab.example.com/#v=2&s=q64FAA&chart=rate', {
      panels: ['path', 'chart', 'commands'],
      chart: 'cloudwatch',
    });
    expect(new URL(url).hash).toBe('#v=2&s=q64FAA&embed=1&panels=path,chart,commands&chart=cloudwatch');
    expect(parseEmbedFlags(new URL(url).hash).flags.chart).toBe('cloudwatch');
  });

  it('an unknown chart, or panels naming no panel, get the default and a note: never a blank frame', () => {
    const r = parseEmbedFlags('#embed=1&panels=pth,chrts&chart=ladderz');
    expect(r.flags.panels).toBeUndefined();
    expect(r.flags.chart).toBeUndefined();
    expect(r.notes).toEqual([
      'panels: "pth,chrts" names no panel; showing path, chart, commands',
      'chart: "ladderz" is not a chart (rate, ladder, cloudwatch, pps, latency, queues, credits, drops, allowances); showing rate',
    ]);
    expect(parseEmbedFlags('#embed=1&panels=').notes).toEqual([
      'panels: empty; showing path, chart, commands',
    ]);
    // some known: those, without a note here (the codec names each unknown one)
    expect(parseEmbedFlags('#embed=1&panels=path,foo').flags.panels).toEqual(['path']);
  });
});
