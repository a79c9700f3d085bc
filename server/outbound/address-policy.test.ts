/** The address policy that refuses every non-public target: by URL, at connect time (DNS answers) and on redirects. */
import { MockAgent } from 'undici';
import ipaddr from 'ipaddr.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkedUrl, isPublicAddress } from './address-policy.ts';
import { DEFAULT_LIMITS, fetchPage } from './fetch-page.ts';
import { guardedAgent } from './guarded-agent.ts';

describe('the address policy', () => {
  const closed = { allowPrivateNetwork: false };

  it.each([
    'http://127.0.0.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.0.0.1/', 'http://127.1/', 'http://[::1]/',
    'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://10.0.0.8/', 'http://172.16.4.2/', 'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://0.0.0.0/', 'http://[fd00:ec2::254]/', 'http://[fe80::1]/',
    'http://localhost:3000/', 'http://db.internal/', 'http://printer.local/', 'http://224.0.0.1/',
  ])('refuses %s', (url) => {
    expect(() => checkedUrl(url, closed)).toThrow(expect.objectContaining({ code: 'url_not_allowed' }));
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'http://user:secret@example.com/'])('refuses %s by scheme or credentials', (url) => {
    expect(() => checkedUrl(url, closed)).toThrow(expect.objectContaining({ code: 'url_not_allowed' }));
  });

  it('allows public addresses and names', () => {
    expect(checkedUrl('https://example.com/a', closed).href).toBe('https://example.com/a');
    expect(isPublicAddress('93.184.215.14')).toBe(true);
    expect(isPublicAddress('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBe(true);
  });

  it.each([
    ['https://example.com/a', true], ['https://social.example/groups/x', true], ['http://1.2.3.4.example/', true], ['http://93.184.215.14/', true],
    ['http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/', true], ['http://127.0.0.1.nip.io/', true], ['http://db.internal/', false], ['http://[::ffff:10.0.0.1]/', false],
  ])('gives %s the verdict ipaddr.isValid gave (allowed: %s)', (url, allowed) => {
    const check = () => checkedUrl(url, closed);
    if (allowed) expect(check()).toBeInstanceOf(URL);
    else expect(check).toThrow(expect.objectContaining({ code: 'url_not_allowed' }));
  });

  describe('host names skip ipaddr (its parser throws and catches on each, 5% of a cached call)', () => {
    afterEach(() => vi.restoreAllMocks());
    it.each(['https://example.com/a', 'https://social.example/groups/berlin-hikers', 'http://xn--bcher-kva.example/'])('checks %s without calling ipaddr', (url) => {
      const isValid = vi.spyOn(ipaddr, 'isValid');
      const parse = vi.spyOn(ipaddr, 'parse');
      checkedUrl(url, closed);
      expect(isValid).not.toHaveBeenCalled();
      expect(parse).not.toHaveBeenCalled();
    });
  });

  it('refuses a name whose DNS answer is private, at connect time', async () => {
    const agent = guardedAgent(closed, (_host, callback) => callback(null, [{ address: '10.1.2.3', family: 4 }]));
    await expect(fetchPage('http://intranet.example.com/', { agent, policy: closed, limits: DEFAULT_LIMITS })).rejects.toMatchObject({ code: 'url_not_allowed' });
    await agent.close();
  });

  it('refuses a redirect to a non-public address', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('http://public.example.com').intercept({ path: '/go' }).reply(302, '', { headers: { location: 'http://169.254.169.254/latest/meta-data/' } });
    await expect(fetchPage('http://public.example.com/go', { agent: agent as never, policy: closed, limits: { timeoutMs: 5000, maxBytes: 1024, maxRedirects: 5 } })).rejects.toMatchObject({ code: 'url_not_allowed' });
    await agent.close();
  });
});
