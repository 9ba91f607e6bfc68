import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://files.example.com'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['RATE_LIMIT_KEY_PER_MINUTE', '0'],
    ['BILLING', 'no'],
  ])('refuses %s=%s with a ConfigError that names the variable', (name, value) => {
    const err = configErrorOf({ [name]: value });
    expect(err.message).toContain(name);
  });

  it.each([
    [{ S3_BUCKET: 'parcel' }, 'S3_ACCESS_KEY_ID'],
    [{ S3_BUCKET: 'parcel', S3_ACCESS_KEY_ID: 'k' }, 'S3_SECRET_ACCESS_KEY'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'Not_A_Bucket', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'parcel', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_PART_SIZE_MB: '16' }, 'S3_PART_SIZE_MB'],
    [{ S3_PRESIGNED_DOWNLOADS: '1' }, 'S3_PRESIGNED_DOWNLOADS'],
  ])('refuses an incomplete or impossible S3 setting %j, naming %s', (env, name) => {
    expect(configErrorOf(env).message).toContain(name);
  });

  it('keeps files on disk without S3_BUCKET, and takes a complete S3 setting with a 64 MiB part size by default', () => {
    expect(loadConfig({}).S3_BUCKET).toBeUndefined();
    const config = loadConfig({ S3_BUCKET: 'parcel', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: '1' });
    expect([config.S3_BUCKET, config.S3_REGION, config.S3_PART_SIZE_MB, config.S3_FORCE_PATH_STYLE]).toEqual(['parcel', 'us-east-1', 64, true]);
  });

  it('names every bad variable when several are wrong at once', () => {
    const err = configErrorOf({ PORT: 'abc', DATABASE_URL: 'mysql://x' });
    expect(err.message).toContain('PORT');
    expect(err.message).toContain('DATABASE_URL');
  });

  it('listens on port 8080 and builds links from http://localhost:8080 by default', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.PUBLIC_URL).toBe('http://localhost:8080');
  });

  it('bills by default, and takes BILLING=off for a server that bills nobody', () => {
    expect(loadConfig({}).BILLING).toBe('on');
    expect(loadConfig({ BILLING: 'off' }).BILLING).toBe('off');
  });

  it('derives the default PUBLIC_URL from PORT', () => {
    expect(loadConfig({ PORT: '3000' }).PUBLIC_URL).toBe('http://localhost:3000');
  });

  it('drops a trailing slash from PUBLIC_URL so that links are not doubled', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://files.example.com/' }).PUBLIC_URL).toBe('https://files.example.com');
  });

  it('resolves DATA_DIR to an absolute path, by default and when given relatively', () => {
    const byDefault = loadConfig({}).DATA_DIR;
    expect(path.isAbsolute(byDefault)).toBe(true);
    const relative = loadConfig({ DATA_DIR: 'some/dir' }).DATA_DIR;
    expect(path.isAbsolute(relative)).toBe(true);
    expect(relative).toBe(path.resolve('some/dir'));
  });

  it('treats an empty variable as unset, as shells and .env files write them', () => {
    const config = loadConfig({ PORT: '', PUBLIC_URL: '', DATABASE_URL: '' });
    expect(config.PORT).toBe(8080);
    expect(config.PUBLIC_URL).toBe('http://localhost:8080');
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('accepts postgres:// and postgresql:// database URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/parcel' }).DATABASE_URL).toBe('postgres://u@db:5432/parcel');
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@db/parcel' }).DATABASE_URL).toBe('postgresql://u@db/parcel');
  });
});
