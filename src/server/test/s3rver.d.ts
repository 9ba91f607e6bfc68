// s3rver ships no types; this is the part of its API the test harness uses.
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { Readable } from 'node:stream';

  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }

  interface KoaContext {
    method: string;
    path: string;
    query: Record<string, string | undefined>;
    status: number;
    type: string;
    body: unknown;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware stack: what runs before the S3 routes. */
    middleware: ((ctx: KoaContext, next: () => Promise<unknown>) => Promise<unknown> | unknown)[];
    store: {
      getResourcePath(bucket: string, key: string | undefined, resource: string): string;
      putObject(object: { bucket: string; key: string; content: Readable | Buffer; metadata: Record<string, string> }): Promise<{ size: number; md5: string }>;
      putPart(bucket: string, uploadId: string, partNumber: string | number, content: Readable): Promise<{ size: number; md5: string }>;
      putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
    };
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    httpServer?: Server;
  }
}
