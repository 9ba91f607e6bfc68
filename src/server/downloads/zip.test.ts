import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { crc32 } from '@node-rs/crc32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ZipLayout, type ZipSource, zipEntryNames, zipLayout, zipRange } from './zip.js';

const run = promisify(execFile);
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-zip-test-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

interface Original {
  name: string;
  file: string;
  data: Buffer;
  modifiedAt: Date;
}

let fileCounter = 0;
async function original(name: string, data: Buffer, modifiedAt = new Date('2024-05-06T07:08:09Z')): Promise<Original> {
  const file = path.join(dir, `src-${fileCounter++}`);
  await fs.writeFile(file, data);
  return { name, file, data, modifiedAt };
}

function fileSource(o: Original, opens?: [string, number, number][]): ZipSource {
  return {
    name: o.name,
    size: o.data.length,
    crc32: crc32(o.data),
    modifiedAt: o.modifiedAt,
    open: (start, end) => {
      opens?.push([o.name, start, end]);
      return createReadStream(o.file, { start, end });
    },
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  return Buffer.concat(await stream.toArray());
}

async function writeZip(layout: ZipLayout, name: string): Promise<string> {
  const file = path.join(dir, name);
  await pipeline(zipRange(layout, 0, layout.size - 1), createWriteStream(file));
  return file;
}

const PY_CHECK = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    assert bad is None, "bad member: %r" % bad
    out = []
    for i in z.infolist():
        e = {"name": i.filename, "size": i.file_size, "offset": i.header_offset, "crc": i.CRC,
             "date_time": list(i.date_time), "mode": i.external_attr >> 16, "system": i.create_system,
             "method": i.compress_type, "flags": i.flag_bits}
        if len(sys.argv) > 2 and i.file_size <= int(sys.argv[2]):
            h = hashlib.sha256()
            with z.open(i) as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
            e["sha256"] = h.hexdigest()
        out.append(e)
    print(json.dumps(out))
`;

interface PyEntry {
  name: string;
  size: number;
  offset: number;
  crc: number;
  date_time: number[];
  mode: number;
  system: number;
  method: number;
  flags: number;
  sha256?: string;
}

async function pythonCheck(zipFile: string, hashUpTo = Number.MAX_SAFE_INTEGER): Promise<PyEntry[]> {
  const { stdout } = await run('python3', ['-c', PY_CHECK, zipFile, String(hashUpTo)], { maxBuffer: 256 * MiB });
  return JSON.parse(stdout) as PyEntry[];
}

async function unzipTest(zipFile: string, members: string[] = []): Promise<string> {
  // Rejects (non-zero exit) on any error or warning.
  const { stdout } = await run('unzip', ['-t', zipFile, ...members], { maxBuffer: 256 * MiB });
  expect(stdout).toMatch(/No errors detected/);
  return stdout;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Writes a stream to a file, leaving its runs of zeros as holes: the 4 GiB archive is mostly the
 * zeros of its big entry, and readers see the same bytes without 4 GiB going to and from the disk.
 */
function sparseFile(file: string): Writable {
  let handle: fs.FileHandle | undefined;
  let position = 0;
  const zeros = Buffer.alloc(MiB);
  const allZero = (chunk: Buffer) => {
    for (let at = 0; at < chunk.length; at += zeros.length) {
      const part = chunk.subarray(at, at + zeros.length);
      if (!part.equals(zeros.subarray(0, part.length))) return false;
    }
    return true;
  };
  return new Writable({
    async write(chunk: Buffer, _encoding, callback) {
      try {
        handle ??= await fs.open(file, 'w');
        if (!allZero(chunk)) await handle.write(chunk, 0, chunk.length, position);
        position += chunk.length;
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    async final(callback) {
      try {
        handle ??= await fs.open(file, 'w');
        await handle.truncate(position);
        await handle.close();
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
  });
}

/** Checks a built archive end to end: its length, Python's zipfile and Info-ZIP's unzip. */
async function checkArchive(originals: Original[], label: string): Promise<Buffer> {
  const layout = zipLayout(originals.map((o) => fileSource(o)));
  const zipFile = await writeZip(layout, `${label}.zip`);
  const bytes = await fs.readFile(zipFile);
  expect(bytes.length).toBe(layout.size);

  const entries = await pythonCheck(zipFile);
  expect(entries.map((e) => e.name)).toEqual(originals.map((o) => o.name));
  entries.forEach((e, i) => {
    const o = originals[i]!;
    expect(e.size).toBe(o.data.length);
    expect(e.sha256).toBe(sha256(o.data));
    expect(e.crc).toBe(crc32(o.data));
    expect(e.method).toBe(0);
    expect(e.flags).toBe(0x800);
    expect(e.system).toBe(3);
    expect(e.mode).toBe(0o100644);
    const d = o.modifiedAt;
    expect(e.date_time).toEqual([
      d.getUTCFullYear(),
      d.getUTCMonth() + 1,
      d.getUTCDate(),
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds() & ~1,
    ]);
  });

  await unzipTest(zipFile);
  // And unzip extracts the same names and bytes (with a UTF-8 locale for the unicode names).
  const out = path.join(dir, `${label}-out`);
  await run('unzip', ['-q', zipFile, '-d', out], { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  for (const o of originals) {
    expect(await fs.readFile(path.join(out, o.name))).toEqual(o.data);
    const st = await fs.stat(path.join(out, o.name));
    // The extended timestamp carries the exact second (when it fits its signed 32 bits; past 2038
    // unzip falls back to the DOS fields, which it decodes wrongly after 2100).
    const seconds = Math.floor(o.modifiedAt.getTime() / 1000);
    if (seconds < 2 ** 31) expect(Math.floor(st.mtimeMs / 1000)).toBe(seconds);
  }
  await fs.rm(out, { recursive: true });
  return bytes;
}

describe('zip archive', () => {
  it('is accepted by Python and unzip, with the exact predicted length', async () => {
    const sets: [string, Original[]][] = [
      ['empty-file', [await original('empty.txt', Buffer.alloc(0))]],
      [
        'several',
        [
          await original('a.txt', Buffer.from('hello\n')),
          await original('b.bin', randomBytes(200_000)),
          await original('empty', Buffer.alloc(0)),
          await original('c.bin', randomBytes(70_001), new Date('1999-12-31T23:59:59Z')),
        ],
      ],
      [
        'nested-unicode',
        [
          await original('docs/2024/q1/report.pdf', randomBytes(3000)),
          await original('docs/naïve 文件.txt', Buffer.from('unicode ✓\n')),
          await original('données/été/😀.txt', randomBytes(10)),
          await original('top.txt', randomBytes(1), new Date('2107-06-01T10:00:00Z')),
        ],
      ],
    ];
    for (const [label, originals] of sets) await checkArchive(originals, label);
  });

  it('is empty but valid with no entries', async () => {
    const layout = zipLayout([]);
    expect(layout.size).toBe(22);
    const zipFile = await writeZip(layout, 'none.zip');
    expect(await pythonCheck(zipFile)).toEqual([]);
  });

  it('is deterministic', async () => {
    const o = [await original('x/y.txt', randomBytes(1000)), await original('z', Buffer.from('z'))];
    const build = async () => {
      const layout = zipLayout(o.map((x) => fileSource(x)));
      return collect(zipRange(layout, 0, layout.size - 1));
    };
    expect((await build()).equals(await build())).toBe(true);
  });

  it('clamps dates the DOS format cannot hold', async () => {
    const originals = [
      await original('old.txt', Buffer.from('old'), new Date('1970-01-02T00:00:00Z')),
      await original('invalid.txt', Buffer.from('?'), new Date(Number.NaN)),
      await original('far.txt', Buffer.from('far'), new Date('2300-01-01T00:00:00Z')),
    ];
    const layout = zipLayout(originals.map((o) => fileSource(o)));
    const entries = await pythonCheck(await writeZip(layout, 'dates.zip'));
    expect(entries.map((e) => e.date_time)).toEqual([
      [1980, 1, 1, 0, 0, 0],
      [1980, 1, 1, 0, 0, 0],
      [2107, 12, 31, 23, 59, 58],
    ]);
  });

  it('works with zipEntryNames', async () => {
    const files = [
      { name: 'passwd', path: '../../etc' },
      { name: 'Report.pdf', path: null },
      { name: 'report.pdf', path: null },
    ];
    const names = zipEntryNames(files);
    const originals = await Promise.all(names.map((n) => original(n, randomBytes(100))));
    const bytes = await checkArchive(originals, 'named');
    expect(bytes.includes(Buffer.from('../'))).toBe(false);
  });

  it('uses ZIP64 end records for 65535 entries or more', async () => {
    const count = 0x10000;
    const sources: ZipSource[] = Array.from({ length: count }, (_, i) => ({
      name: `f/${String(i).padStart(5, '0')}`,
      size: i % 1000 === 0 ? 1 : 0,
      crc32: i % 1000 === 0 ? crc32(Buffer.from('x')) : 0,
      modifiedAt: new Date('2024-01-01T00:00:00Z'),
      open: () => Readable.from([Buffer.from('x')]),
    }));
    const layout = zipLayout(sources);
    expect(layout.zip64).toBe(true);
    const zipFile = await writeZip(layout, 'many.zip');
    expect((await fs.stat(zipFile)).size).toBe(layout.size);
    const entries = await pythonCheck(zipFile, 0);
    expect(entries.length).toBe(count);
    expect(entries[count - 1]!.name).toBe('f/65535');
    const out = await unzipTest(zipFile);
    expect(out).toMatch(/f\/65535/);
  }, 120_000);
});

describe('zipRange', () => {
  let originals: Original[];
  let full: Buffer;
  let layout: ZipLayout;
  let opens: [string, number, number][];

  beforeAll(async () => {
    originals = [
      await original('one.bin', randomBytes(150_000)),
      await original('dir/empty', Buffer.alloc(0)),
      await original('dir/two.bin', randomBytes(1)),
      await original('dir/sub/three.bin', randomBytes(300_000)),
      await original('four.txt', Buffer.from('four')),
    ];
    opens = [];
    layout = zipLayout(originals.map((o) => fileSource(o, opens)));
    full = await collect(zipRange(layout, 0, layout.size - 1));
    expect(full.length).toBe(layout.size);
  });

  const range = async (start: number, end: number) => {
    opens.length = 0;
    const got = await collect(zipRange(layout, start, end));
    expect(got.length).toBe(end - start + 1);
    expect(got.equals(full.subarray(start, end + 1))).toBe(true);
    return [...opens];
  };

  it('gives the same bytes as the full archive for random ranges', async () => {
    for (let i = 0; i < 200; i++) {
      const a = Math.floor(Math.random() * layout.size);
      const b = Math.floor(Math.random() * layout.size);
      await range(Math.min(a, b), Math.max(a, b));
    }
  });

  it('handles edge cases at part boundaries', async () => {
    const last = layout.size - 1;
    const edges = new Set<number>([0, 1, last, last - 1]);
    for (const p of layout.parts) {
      for (const d of [-1, 0, 1]) {
        const x = p.offset + d;
        if (x >= 0 && x <= last) edges.add(x);
        const y = p.offset + p.length - 1 + d;
        if (y >= 0 && y <= last) edges.add(y);
      }
    }
    const points = [...edges].sort((a, b) => a - b);
    for (const s of points) {
      await range(s, s); // single bytes
      await range(s, last); // suffixes
      await range(0, s); // prefixes
    }
    for (let i = 0; i < points.length; i++) {
      for (let j = i; j < points.length; j += 3) await range(points[i]!, points[j]!);
    }
  });

  it('concatenates [0, k) and [k, size) into the whole archive', async () => {
    for (const k of [1, 29, 30, 31, 1000, 150_000, Math.floor(layout.size / 2), layout.size - 22, layout.size - 1]) {
      const a = await collect(zipRange(layout, 0, k - 1));
      const b = await collect(zipRange(layout, k, layout.size - 1));
      expect(Buffer.concat([a, b]).equals(full)).toBe(true);
    }
  });

  it('opens only the files that overlap, at the right offsets', async () => {
    const entry = (name: string) => layout.entries.find((e) => e.name === name)!;
    const three = entry('dir/sub/three.bin');
    // Inside one file.
    expect(await range(three.dataOffset + 10, three.dataOffset + 20)).toEqual([['dir/sub/three.bin', 10, 20]]);
    // Headers only: the local header of three.bin.
    expect(await range(three.headerOffset, three.dataOffset - 1)).toEqual([]);
    // From the middle of one.bin into two.bin.
    const one = entry('one.bin');
    const two = entry('dir/two.bin');
    expect(await range(one.dataOffset + 149_999, two.dataOffset)).toEqual([
      ['one.bin', 149_999, 149_999],
      ['dir/two.bin', 0, 0],
    ]);
    // The central directory and end record.
    const four = entry('four.txt');
    expect(await range(four.dataOffset + 4, layout.size - 1)).toEqual([]);
    // Everything: each non-empty file once, whole.
    expect(await range(0, layout.size - 1)).toEqual(
      originals.filter((o) => o.data.length > 0).map((o) => [o.name, 0, o.data.length - 1]),
    );
  });

  it('rejects invalid ranges', () => {
    expect(() => zipRange(layout, -1, 5)).toThrow(RangeError);
    expect(() => zipRange(layout, 5, 4)).toThrow(RangeError);
    expect(() => zipRange(layout, 0, layout.size)).toThrow(RangeError);
    expect(() => zipRange(layout, 0.5, 4)).toThrow(RangeError);
  });
});

/** A source of `size` bytes of 0x61 produced in `chunk`-sized pieces on demand, observable from outside. */
function observableSource(size: number, chunk = 16 * 1024) {
  const state = { produced: 0, streams: [] as Readable[], destroyed: 0 };
  const source: ZipSource = {
    name: 'watched.bin',
    size,
    crc32: 0, // not checked by zipRange
    modifiedAt: new Date('2024-01-01T00:00:00Z'),
    open(start, end) {
      let left = end - start + 1;
      const s = new Readable({
        read() {
          if (left === 0) return void this.push(null);
          const n = Math.min(chunk, left);
          left -= n;
          state.produced += n;
          // Asynchronously, like storage.
          setImmediate(() => this.push(Buffer.alloc(n, 0x61)));
        },
        destroy(err, cb) {
          state.destroyed++;
          cb(err);
        },
      });
      state.streams.push(s);
      return s;
    },
  };
  return { source, state };
}

describe('zipRange streaming', () => {
  it('destroys the open file stream when the consumer goes away', async () => {
    const { source, state } = observableSource(100 * MiB);
    const layout = zipLayout([source]);
    const out = zipRange(layout, layout.entries[0]!.dataOffset + 5, layout.size - 1);
    const first = await new Promise<Buffer>((resolve) => out.once('data', resolve));
    out.pause();
    expect(first[0]).toBe(0x61);
    expect(state.streams.length).toBe(1);
    const file = state.streams[0]!;
    expect(file.destroyed).toBe(false);
    const closed = new Promise((resolve) => file.once('close', resolve));
    out.destroy();
    await closed;
    expect(file.destroyed).toBe(true);
    expect(state.destroyed).toBe(1);
    expect(state.produced).toBeLessThan(2 * MiB);
  });

  it('destroys the file stream when the consumer goes away right after the header', async () => {
    const { source, state } = observableSource(100 * MiB);
    const layout = zipLayout([source]);
    const out = zipRange(layout, 0, layout.size - 1);
    const first = await new Promise<Buffer>((resolve) => out.once('data', resolve));
    out.pause();
    expect(first.readUInt32LE(0)).toBe(0x04034b50);
    out.destroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state.streams.every((s) => s.destroyed)).toBe(true);
  });

  it('applies backpressure instead of reading ahead', async () => {
    const { source, state } = observableSource(100 * MiB);
    const layout = zipLayout([source]);
    const out = zipRange(layout, 0, layout.size - 1);
    // Nobody reads: the file must not be read much beyond the buffers.
    await new Promise<void>((resolve) => out.once('readable', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(state.produced).toBeLessThan(1 * MiB);
    // Reading it all produces all of it.
    let total = 0;
    for await (const chunk of out) total += (chunk as Buffer).length;
    expect(total).toBe(layout.size);
    expect(state.produced).toBe(100 * MiB);
  });

  it('propagates errors from file streams', async () => {
    const layout = zipLayout([
      {
        name: 'broken',
        size: 10,
        crc32: 0,
        modifiedAt: new Date(),
        open: () =>
          new Readable({
            read() {
              this.destroy(new Error('disk on fire'));
            },
          }),
      },
    ]);
    await expect(collect(zipRange(layout, 0, layout.size - 1))).rejects.toThrow('disk on fire');
  });

  it('propagates errors thrown by open()', async () => {
    const layout = zipLayout([
      {
        name: 'missing',
        size: 10,
        crc32: 0,
        modifiedAt: new Date(),
        open: () => {
          throw new Error('no such object');
        },
      },
    ]);
    await expect(collect(zipRange(layout, 0, layout.size - 1))).rejects.toThrow('no such object');
  });

  it('fails when a file is shorter than its recorded size', async () => {
    const layout = zipLayout([
      { name: 'short', size: 10, crc32: 0, modifiedAt: new Date(), open: () => Readable.from([Buffer.from('12345')]) },
    ]);
    await expect(collect(zipRange(layout, 0, layout.size - 1))).rejects.toThrow(/short/);
  });

  it('cuts off a source that returns more than asked for', async () => {
    const layout = zipLayout([
      { name: 'long', size: 3, crc32: crc32(Buffer.from('abc')), modifiedAt: new Date(), open: () => Readable.from([Buffer.from('abcdef')]) },
      { name: 'next', size: 1, crc32: crc32(Buffer.from('g')), modifiedAt: new Date(), open: () => Readable.from([Buffer.from('g')]) },
    ]);
    const bytes = await collect(zipRange(layout, 0, layout.size - 1));
    expect(bytes.length).toBe(layout.size);
    expect(bytes.subarray(layout.entries[0]!.dataOffset, layout.entries[0]!.dataOffset + 3).toString()).toBe('abc');
    expect(bytes.subarray(layout.entries[1]!.dataOffset, layout.entries[1]!.dataOffset + 1).toString()).toBe('g');
  });

  it('rejects invalid sources', () => {
    const ok: ZipSource = { name: 'a', size: 1, crc32: 0, modifiedAt: new Date(), open: () => Readable.from([]) };
    expect(() => zipLayout([{ ...ok, name: '' }])).toThrow();
    expect(() => zipLayout([{ ...ok, size: -1 }])).toThrow();
    expect(() => zipLayout([{ ...ok, size: 1.5 }])).toThrow();
    expect(() => zipLayout([{ ...ok, crc32: 2 ** 32 }])).toThrow();
    expect(() => zipLayout([{ ...ok, name: 'x'.repeat(70_000) }])).toThrow();
  });
});

describe('ZIP64 entries', () => {
  it('lays out a file over 4 GiB without touching its data', () => {
    const big: ZipSource = { name: 'big', size: 5 * GiB, crc32: 1, modifiedAt: new Date(), open: () => Readable.from([]) };
    const small: ZipSource = { name: 'small', size: 1, crc32: 2, modifiedAt: new Date(), open: () => Readable.from([]) };
    const layout = zipLayout([big, small]);
    expect(layout.zip64).toBe(true);
    expect(layout.entries.map((e) => e.zip64)).toEqual([true, true]);
    expect(layout.entries[1]!.headerOffset).toBeGreaterThan(5 * GiB);
    // The local header of `big`: sizes 0xFFFFFFFF, a zip64 extra with both sizes.
    const lh = (layout.parts[0] as { buf: Buffer }).buf;
    expect(lh.readUInt16LE(4)).toBe(45);
    expect(lh.readUInt32LE(18)).toBe(0xffffffff);
    expect(lh.readUInt32LE(22)).toBe(0xffffffff);
    expect(lh.readUInt16LE(30 + 3)).toBe(0x0001);
    expect(lh.readUInt16LE(30 + 3 + 2)).toBe(16);
    expect(Number(lh.readBigUInt64LE(30 + 3 + 4))).toBe(5 * GiB);
    expect(Number(lh.readBigUInt64LE(30 + 3 + 12))).toBe(5 * GiB);
    // The local header of `small` needs no zip64 extra (it has no offset field).
    const lh2 = (layout.parts[2] as { buf: Buffer }).buf;
    expect(lh2.readUInt32LE(18)).toBe(1);
    expect(lh2.readUInt16LE(28)).toBe(9); // only the extended timestamp
  });

  // The acceptance test: a real archive with a file over 4 GiB (sparse on disk) followed by a file
  // whose local header lies beyond 4 GiB, checked by Python's zipfile and Info-ZIP's unzip.
  it('is accepted by Python and unzip with a file over 4 GiB', async (ctx) => {
    const bigSize = 4 * GiB + MiB;
    // Holes read back fastest from memory: /dev/shm where there is one (the holes take none of it).
    const dir = await fs.mkdtemp(path.join(await fs.stat('/dev/shm').then((s) => (s.isDirectory() ? '/dev/shm' : os.tmpdir()), () => os.tmpdir()), 'parcel-zip64-'));
    ctx.onTestFinished(() => fs.rm(dir, { recursive: true, force: true }));
    const stat = await fs.statfs(dir);
    if (stat.bavail * stat.bsize < bigSize + 2 * GiB) {
      ctx.skip(`not enough disk space in ${dir} for a 4 GiB archive`);
    }
    const bigFile = path.join(dir, 'sparse-4g');
    await fs.writeFile(bigFile, '');
    await fs.truncate(bigFile, bigSize); // sparse: no disk used
    const zeros = Buffer.alloc(16 * MiB);
    let bigCrc = 0;
    for (let left = bigSize; left > 0; left -= zeros.length) {
      bigCrc = crc32(left >= zeros.length ? zeros : zeros.subarray(0, left), bigCrc);
    }
    const small = await original('after/small.txt', randomBytes(5000));
    const sources: ZipSource[] = [
      {
        name: 'big/zeros.bin',
        size: bigSize,
        crc32: bigCrc,
        modifiedAt: new Date('2024-02-03T04:05:06Z'),
        open: (start, end) => createReadStream(bigFile, { start, end, highWaterMark: MiB }),
      },
      fileSource(small),
    ];
    const layout = zipLayout(sources);
    expect(layout.zip64).toBe(true);
    expect(layout.entries[1]!.headerOffset).toBeGreaterThan(2 ** 32);

    const zipFile = path.join(dir, 'big.zip');
    try {
      const t0 = performance.now();
      await pipeline(zipRange(layout, 0, layout.size - 1), sparseFile(zipFile));
      const t1 = performance.now();
      expect((await fs.stat(zipFile)).size).toBe(layout.size);

      const entries = await pythonCheck(zipFile, MiB);
      const t2 = performance.now();
      expect(entries.map((e) => [e.name, e.size, e.crc])).toEqual([
        ['big/zeros.bin', bigSize, bigCrc],
        ['after/small.txt', 5000, crc32(small.data)],
      ]);
      expect(entries[1]!.offset).toBe(layout.entries[1]!.headerOffset);
      expect(entries[1]!.sha256).toBe(sha256(small.data));

      // unzip reads the ZIP64 records and tests the member whose header lies past 4 GiB; the big
      // member's CRC (4 GiB through unzip's slow CRC) Python has just checked.
      expect((await unzipTest(zipFile, ['after/small.txt'])).match(/testing: after\/small\.txt +OK/)).not.toBeNull();
      const { stdout: listing } = await run('unzip', ['-l', zipFile]);
      expect(listing).toMatch(new RegExp(`^\\s*${bigSize}\\s.*big/zeros\\.bin$`, 'm'));
      const t3 = performance.now();

      // Ranges across the 4 GiB mark match the archive on disk.
      for (const [s, e] of [
        [2 ** 32 - 100, 2 ** 32 + 100],
        [layout.entries[1]!.headerOffset - 10, layout.size - 1],
        [layout.size - 200, layout.size - 1],
      ] as const) {
        const expected = await collect(createReadStream(zipFile, { start: s, end: e }));
        expect((await collect(zipRange(layout, s, e))).equals(expected)).toBe(true);
      }
      console.info(
        `4 GiB zip: written in ${((t1 - t0) / 1000).toFixed(1)} s, python zipfile ${((t2 - t1) / 1000).toFixed(1)} s, unzip ${((t3 - t2) / 1000).toFixed(1)} s`,
      );
    } finally {
      await fs.rm(zipFile, { force: true });
      await fs.rm(bigFile, { force: true });
    }
  }, 300_000);
});
