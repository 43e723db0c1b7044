import { describe, expect, it } from 'vitest';
import {
  crc32Hash,
  defaultIndirectionTable,
  ENA_HW_DEFAULT_RSS_KEY,
  enaDefaultHwHash,
  enaLinuxToeplitzHash,
  enaRxHash,
  hasherFor,
  MICROSOFT_RSS_KEY,
  parseIpv4,
  parseIpv6,
  rssInput,
  rssInputIpv4,
  rxQueueFor,
  ToeplitzHasher,
  toeplitzHash,
} from '../../src/engine/host/rss';

/** Bit-by-bit reference implementation (MS-RSS pseudo code), independent of the table. */
function slowToeplitz(key: Uint8Array, input: Uint8Array): number {
  let result = 0;
  for (let i = 0; i < input.length * 8; i++) {
    if ((input[i >> 3]! >> (7 - (i & 7))) & 1) {
      let w = 0;
      for (let b = 0; b < 32; b++) {
        const bit = i + b;
        const byte = key[bit >> 3] ?? 0;
        w = (w << 1) | ((byte >> (7 - (bit & 7))) & 1);
      }
      result ^= w;
    }
  }
  return result >>> 0;
}

// docs/domain-facts.md §5 (MS-RSS "Verifying the RSS hash calculation"; DPDK app/test/test_thash.c).
const V4: Array<[string, number, string, number, number, number]> = [
  // dst, dport, src, sport, ipv4 only, ipv4+tcp
  ['161.142.100.80', 1766, '66.9.149.187', 2794, 0x323e8fc2, 0x51ccc178],
  ['65.69.140.83', 4739, '199.92.111.2', 14230, 0xd718262a, 0xc626b0ea],
  ['12.22.207.184', 38024, '24.19.198.95', 12898, 0xd2d0a5de, 0x5c2b394a],
  ['209.142.163.6', 2217, '38.27.205.30', 48228, 0x82989176, 0xafc7327f],
  ['202.188.127.2', 1303, '153.39.163.191', 44251, 0x5d1809c5, 0x10e828a2],
];
const V6: Array<[string, number, string, number, number, number]> = [
  ['3ffe:2501:200:3::1', 1766, '3ffe:2501:200:1fff::7', 2794, 0x2cc18cd5, 0x40207d3d],
  ['ff02::1', 4739, '3ffe:501:8::260:97ff:fe40:efab', 14230, 0x0f0c461c, 0xdde51bbf],
  ['fe80::200:f8ff:fe21:67cf', 38024, '3ffe:1900:4545:3:200:f8ff:fe21:67cf', 44251, 0x4b61e985, 0x02d1feef],
];

describe('Toeplitz: Microsoft verification vectors', () => {
  for (const [dst, dport, src, sport, ipOnly, withTcp] of V4) {
    it(`IPv4 ${src}:${sport} -> ${dst}:${dport}`, () => {
      expect(toeplitzHash(MICROSOFT_RSS_KEY, rssInput({ srcIp: src, dstIp: dst }))).toBe(ipOnly);
      expect(
        toeplitzHash(MICROSOFT_RSS_KEY, rssInput({ srcIp: src, dstIp: dst, srcPort: sport, dstPort: dport })),
      ).toBe(withTcp);
      // The allocation-free fast path agrees.
      const h = hasherFor(MICROSOFT_RSS_KEY);
      expect(h.hashIpv4(parseIpv4(src)!, parseIpv4(dst)!)).toBe(ipOnly);
      expect(h.hashIpv4(parseIpv4(src)!, parseIpv4(dst)!, sport, dport)).toBe(withTcp);
    });
  }
  for (const [dst, dport, src, sport, ipOnly, withTcp] of V6) {
    it(`IPv6 ${src}:${sport} -> ${dst}:${dport}`, () => {
      expect(toeplitzHash(MICROSOFT_RSS_KEY, rssInput({ srcIp: src, dstIp: dst }))).toBe(ipOnly);
      expect(
        toeplitzHash(MICROSOFT_RSS_KEY, rssInput({ srcIp: src, dstIp: dst, srcPort: sport, dstPort: dport })),
      ).toBe(withTcp);
    });
  }

  it('table-driven hash equals the bit-by-bit definition for arbitrary keys and inputs', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed & 255;
    };
    for (let trial = 0; trial < 50; trial++) {
      const key = Uint8Array.from({ length: 40 }, rnd);
      const input = Uint8Array.from({ length: 1 + (trial % 36) }, rnd);
      expect(new ToeplitzHasher(key).hash(input)).toBe(slowToeplitz(key, input));
    }
  });

  it('rejects inputs longer than the key allows', () => {
    expect(() => new ToeplitzHasher(MICROSOFT_RSS_KEY).hash(new Uint8Array(37))).toThrow();
  });

  it('cache notices a key mutated in place', () => {
    const key = MICROSOFT_RSS_KEY.slice();
    const input = rssInputIpv4(parseIpv4('1.2.3.4')!, parseIpv4('5.6.7.8')!, 1, 2);
    const before = toeplitzHash(key, input);
    key[0] = key[0]! ^ 0xff;
    expect(toeplitzHash(key, input)).toBe(slowToeplitz(key, input));
    expect(toeplitzHash(key, input)).not.toBe(before);
  });
});

describe('ENA variants (amzn-ec2-ena-utilities ena-toeplitz/toeplitz_calc.py)', () => {
  // toeplitz_calc.py -t 1.2.3.4 -T 7000 -r 1.2.3.5 -R 7000 [-k 77:d1:...], reproduced locally with the script's logic.
  const userKey = Uint8Array.from(
    '77:d1:c9:34:a4:c9:bd:87:6e:35:dd:17:b2:e3:23:9e:39:6d:8a:93:2a:95:b4:72:3a:b3:7f:56:8e:de:b6:01:97:af:3b:2f:3a:70:e7:04'
      .split(':')
      .map((x) => Number.parseInt(x, 16)),
  );
  const flow = { srcIp: '1.2.3.4', dstIp: '1.2.3.5', srcPort: 7000, dstPort: 7000 };

  it('hardware default key is the Microsoft key with its words reversed', () => {
    expect(Array.from(ENA_HW_DEFAULT_RSS_KEY.slice(0, 8))).toEqual([
      0xbe, 0xac, 0x01, 0xfa, 0x6a, 0x42, 0xb7, 0x3b,
    ]);
    expect(Array.from(ENA_HW_DEFAULT_RSS_KEY.slice(36))).toEqual([0x6d, 0x5a, 0x56, 0xda]);
  });

  it('DPDK/FreeBSD (standard Toeplitz with the user key): 0xa9828bd4, table entry 84', () => {
    const h = toeplitzHash(userKey, rssInput(flow));
    expect(h).toBe(0xa9828bd4);
    expect(h % 128).toBe(84);
  });

  it('Linux driver >= 2.6 (key bytes reversed by the device, init 0xffffffff): 0x5b5eb8e5, entry 101', () => {
    const h = enaLinuxToeplitzHash(userKey, flow);
    expect(h).toBe(0x5b5eb8e5);
    expect(h % 128).toBe(101);
  });

  it('non-configurable instance: 0x50705070, entry 112, and symmetric in both directions', () => {
    const h = enaDefaultHwHash(flow);
    expect(h).toBe(0x50705070);
    expect(h % 128).toBe(112);
    expect(enaDefaultHwHash({ srcIp: '1.2.3.5', dstIp: '1.2.3.4', srcPort: 7000, dstPort: 7000 })).toBe(h);
    const a = enaDefaultHwHash({ srcIp: '10.0.0.1', dstIp: '10.0.0.2', srcPort: 40000, dstPort: 5201 });
    const b = enaDefaultHwHash({ srcIp: '10.0.0.2', dstIp: '10.0.0.1', srcPort: 5201, dstPort: 40000 });
    expect(a).toBe(b);
    expect(a >>> 16).toBe(a & 0xffff);
  });

  it('enaRxHash picks the variant from the device configuration', () => {
    expect(enaRxHash({ key: userKey, hfunc: 'toeplitz', keyConfigurable: false }, flow)).toBe(0x50705070);
    expect(enaRxHash({ key: userKey, hfunc: 'crc32', keyConfigurable: false }, flow)).toBe(0x50705070);
    expect(enaRxHash({ key: userKey, hfunc: 'toeplitz', keyConfigurable: true }, flow)).toBe(0x5b5eb8e5);
    expect(enaRxHash({ key: userKey, hfunc: 'crc32', keyConfigurable: true }, flow)).toBe(
      crc32Hash(rssInput(flow), 0xffffffff),
    );
  });
});

describe('CRC32', () => {
  it('is the reflected IEEE CRC (check value of "123456789" is 0xcbf43926 after the final XOR)', () => {
    const input = new TextEncoder().encode('123456789');
    expect((crc32Hash(input, 0xffffffff) ^ 0xffffffff) >>> 0).toBe(0xcbf43926);
  });
});

describe('indirection table', () => {
  it('default table is i % nqueues over 128 entries', () => {
    const t = defaultIndirectionTable(3);
    expect(t).toHaveLength(128);
    expect(t.slice(0, 7)).toEqual([0, 1, 2, 0, 1, 2, 0]);
    expect(t[127]).toBe(127 % 3);
    expect(() => defaultIndirectionTable(0)).toThrow();
  });

  it('rxQueueFor uses hash % table size', () => {
    const t = defaultIndirectionTable(8);
    expect(rxQueueFor(0x50705070, t)).toBe(112 % 8);
    expect(rxQueueFor(0xffffffff, t)).toBe(127 % 8);
    const custom = new Array<number>(128).fill(0);
    custom[101] = 5;
    expect(rxQueueFor(0x5b5eb8e5, custom)).toBe(5);
  });
});

describe('address parsing', () => {
  it('parses IPv4 and rejects garbage', () => {
    expect(parseIpv4('1.2.3.4')).toBe(0x01020304);
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIpv4('256.1.1.1')).toBeUndefined();
    expect(parseIpv4('1.2.3')).toBeUndefined();
  });
  it('parses IPv6 forms', () => {
    expect(Array.from(parseIpv6('::1')!)).toEqual([...new Array(15).fill(0), 1]);
    expect(Array.from(parseIpv6('::ffff:1.2.3.4')!.slice(10))).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIpv6('1::2::3')).toBeUndefined();
    expect(parseIpv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
  });
});
