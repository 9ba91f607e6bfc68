import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

/**
 * An S3-compatible server for tests, on a loopback port: s3rver, with the two multipart calls
 * it lacks and @tus/s3-store makes (ListParts, `GET /bucket/key?uploadId=`, and
 * AbortMultipartUpload, `DELETE` on the same), answered from s3rver's own part files, and with
 * writes that are complete when they are answered.
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

function withMultipartExtras(server: S3rver): S3rver {
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (!uploadId || !/^[0-9a-f]+$/.test(uploadId) || !match || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const [, bucket, key] = match as unknown as [string, string, string];
    const dir = path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    if (ctx.method === 'DELETE') {
      await fs.rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const names = await fs.readdir(dir).catch(() => null);
    ctx.type = 'application/xml';
    if (!names) {
      ctx.status = 404;
      ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
      return;
    }
    const numbers = names.filter((n) => /^\d+$/.test(n)).map(Number).sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const [stat, md5] = await Promise.all([fs.stat(path.join(dir, String(n))), fs.readFile(path.join(dir, `${n}.md5`), 'utf8')]);
        return `<Part><PartNumber>${n}</PartNumber><LastModified>${stat.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${stat.size}</Size></Part>`;
      }),
    );
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
      `<Bucket>${xml(bucket)}</Bucket><Key>${xml(decodeURIComponent(key))}</Key><UploadId>${uploadId}</UploadId>` +
      `<PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts>` +
      `<IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  });
  return server;
}

/**
 * s3rver answers a PUT (an object, a part, a completed multipart upload) once the body has passed its
 * hash, before its file is written and closed: a GET right after can find the object empty or short
 * (on a busy machine, most likely how the tus store once read back an empty `.info` it had just written:
 * "Unexpected end of JSON input"). These answer once the file is complete, as S3 does. And as in S3, a
 * PUT whose sender dies halfway leaves nothing: the body goes to a temporary file that becomes the
 * object or part only once it is whole (a half-written part without its `.md5` would otherwise fail
 * every ListParts of its upload from then on).
 */
function withCompleteWrites(server: S3rver): S3rver {
  const store = server.store;
  const writeHashed = async (content: Readable | Buffer, file: string) => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const hash = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, hash, createWriteStream(temp));
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
    return { size, md5: md5.digest('hex'), temp };
  };
  store.putObject = async (object) => {
    const file = store.getResourcePath(object.bucket, object.key, 'object');
    const { temp, ...written } = await writeHashed(object.content, file);
    await store.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    await fs.rename(temp, file);
    return written;
  };
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const file = path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    const { temp, ...written } = await writeHashed(content, file);
    await fs.writeFile(`${file}.md5`, written.md5);
    await fs.rename(temp, file);
    return written;
  };
  return server;
}

export async function startTestS3(bucket = 'parcel'): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-s3-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const server = withCompleteWrites(withMultipartExtras(s3rver));
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's fixed development credentials.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    stop: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
