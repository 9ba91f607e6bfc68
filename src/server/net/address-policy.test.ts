import { describe, expect, it } from 'vitest';
import { type AddressClass, canonicalAddress, classifyAddress, connectableAddress, isAllowedAddress, parseHostLiteral } from './address-policy.js';

describe('classifyAddress', () => {
  const table: Array<[string, AddressClass]> = [
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'private'],
    ['100.128.0.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'reserved'], // IPv4-compatible, deprecated
    ['::ffff:0:127.0.0.1', 'reserved'], // SIIT
    ['64:ff9b::a00:1', 'private'], // NAT64 of 10.0.0.1
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:a00:1::1', 'private'], // 6to4 of 10.0.0.1
    ['2002:808:808::1', 'public'], // 6to4 of 8.8.8.8
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'], // Teredo
    ['2001:10::1', 'reserved'], // ORCHID
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['4000::1', 'reserved'], // outside 2000::/3, unallocated
    ['2606:4700::1111', 'public'],
    ['2a00:1450:4001::200e', 'public'],
  ];
  it.each(table)('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it('throws for something that is not an IP address', () => {
    expect(() => classifyAddress('example.com')).toThrow(TypeError);
    expect(() => classifyAddress('1.2.3')).toThrow(TypeError);
    expect(() => classifyAddress('')).toThrow(TypeError);
  });
});

describe('isAllowedAddress', () => {
  it('allows only public addresses, and loopback only when asked', () => {
    expect(isAllowedAddress('8.8.8.8', { allowLoopback: false })).toBe(true);
    expect(isAllowedAddress('2606:4700::1111', { allowLoopback: false })).toBe(true);
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: false })).toBe(false);
    expect(isAllowedAddress('::1', { allowLoopback: false })).toBe(false);
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('::1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', { allowLoopback: true })).toBe(true);
  });

  it('never allows private, link-local, reserved, unspecified or multicast, even with allowLoopback', () => {
    for (const ip of ['10.0.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::', 'fe80::1', 'fc00::1', 'ff02::1', '::ffff:10.0.0.1', '2001:db8::1']) {
      expect(isAllowedAddress(ip, { allowLoopback: true }), ip).toBe(false);
    }
  });

  it('refuses anything that is not an address', () => {
    expect(isAllowedAddress('localhost', { allowLoopback: true })).toBe(false);
    expect(isAllowedAddress('', { allowLoopback: true })).toBe(false);
  });
});

describe('parseHostLiteral', () => {
  const v4: Array<[string, string]> = [
    ['127.0.0.1', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7F.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0177.0.0.01', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['10.1.1', '10.1.0.1'],
    ['0', '0.0.0.0'],
    ['0x', '0.0.0.0'],
    ['0.0.0.0', '0.0.0.0'],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
  ];
  it.each(v4)('%s is IPv4 %s', (host, address) => {
    expect(parseHostLiteral(host)).toEqual({ family: 4, address });
  });

  it('agrees with WHATWG URL normalisation of legacy IPv4 forms', () => {
    for (const [host, address] of v4) {
      expect(new URL(`https://${host}/`).hostname).toBe(address);
      expect(parseHostLiteral(new URL(`https://${host}/`).hostname)).toEqual({ family: 4, address });
    }
  });

  it('recognises IPv6, bracketed or not, in canonical form', () => {
    expect(parseHostLiteral('[::1]')).toEqual({ family: 6, address: '::1' });
    expect(parseHostLiteral('::1')).toEqual({ family: 6, address: '::1' });
    expect(parseHostLiteral('[::ffff:127.0.0.1]')).toEqual({ family: 6, address: '::ffff:7f00:1' });
    expect(parseHostLiteral(new URL('https://[::ffff:127.0.0.1]/').hostname)).toEqual({ family: 6, address: '::ffff:7f00:1' });
    expect(parseHostLiteral('[2001:DB8:0:0:0:0:0:1]')).toEqual({ family: 6, address: '2001:db8::1' });
    expect(parseHostLiteral('[::]')).toEqual({ family: 6, address: '::' });
  });

  it('returns null for host names and invalid numbers', () => {
    for (const host of ['example.com', 'hooks.example.test', 'localhost', '256.1.1.1', '1.2.3.4.5', '0x7g', '09', '[::1', '[example]', '']) {
      expect(parseHostLiteral(host), host).toBeNull();
    }
  });
});

describe('canonicalAddress', () => {
  it('gives one spelling per address', () => {
    expect(canonicalAddress('::FFFF:127.0.0.1')).toBe('::ffff:7f00:1');
    expect(canonicalAddress('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(canonicalAddress('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(canonicalAddress('nope')).toBeNull();
  });
});

describe('connectableAddress', () => {
  it('unwraps IPv4-mapped addresses and canonicalises the rest', () => {
    expect(connectableAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(connectableAddress('[::ffff:808:808]')).toBe('8.8.8.8');
    expect(connectableAddress('64:ff9b::808:808')).toBe('64:ff9b::808:808');
    expect(connectableAddress('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(connectableAddress('8.8.8.8')).toBe('8.8.8.8');
    expect(connectableAddress('example.com')).toBeNull();
  });
});
