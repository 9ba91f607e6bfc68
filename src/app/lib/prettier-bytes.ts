import { formatBytes } from './format';

/**
 * Stands in for `@transloadit/prettier-bytes` inside Uppy (vite.config.ts aliases it here), so the
 * uploader shows sizes as the rest of the product does: decimal units (80,000,000 bytes is "80 MB",
 * not the binary "76 MB" Uppy's own formatter prints).
 */
export function prettierBytes(bytes: number): string {
  return formatBytes(bytes);
}
