// s3rver ships no types; this is the part of its API the test harness uses.
declare module 's3rver' {
  import type { Server } from 'node:http';

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
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    httpServer?: Server;
  }
}
