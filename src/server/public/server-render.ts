import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { PageLanguage, PublicPageData, RenderedPage } from '../../contract/public-page.js';
import type { Logger } from '../logger.js';


/** What the server render's bundle exports (src/app/entry-server.tsx, built by `vite build` into dist/ssr). */
interface ServerRenderModule {
  renderPublicPage(url: string, data: PublicPageData, language: PageLanguage): Promise<RenderedPage | null>;
}

/** A render that has not finished by then is not waited for: the page is served for the browser to render, as without a server render. */
export const SERVER_RENDER_TIMEOUT_MS = 1_000;
/**
 * Loading the bundle (once per process), and the first render of each page (which loads its
 * route's code), may take longer on a busy machine; they get this long.
 */
const LOAD_TIMEOUT_MS = 5_000;

export type PublicPageRenderer = (url: string, data: PublicPageData, language: PageLanguage) => Promise<RenderedPage | null>;

class TimedOut extends Error {}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Renders public pages with the bundle at `entryFile`, loaded in the background from the start
 * (or the first time a page asks for it, if it was built later), and only if it exists (a
 * server started without a built app, as many tests are, renders none).
 * Never fails: a missing bundle, a render that throws or is too slow each answer null (the
 * latter two with a warning), and the page is served as the browser renders it.
 */
export function publicPageRenderer(entryFile: string, log: Logger): PublicPageRenderer {
  let loading: Promise<ServerRenderModule> | null = null;
  const rendered = new Set<PublicPageData['page']>();
  const load = () => {
    if (loading || !fs.existsSync(entryFile)) return loading;
    loading = import(pathToFileURL(entryFile).href) as Promise<ServerRenderModule>;
    // A bundle that cannot be loaded is not tried again by every request (it is, after a restart).
    loading.catch((err: unknown) => log.warn({ err, entryFile }, 'the server render of public pages could not be loaded: they are rendered in the browser'));
    return loading;
  };
  // Loaded in the background from the start (it takes a second or more), so the first visitor does not wait for it.
  setImmediate(() => void load()?.catch(() => {}));
  return async (url, data, language) => {
    const loaded = load();
    if (!loaded) return null;
    try {
      const module = await within(loaded, LOAD_TIMEOUT_MS);
      const page = await within(module.renderPublicPage(url, data, language), rendered.has(data.page) ? SERVER_RENDER_TIMEOUT_MS : LOAD_TIMEOUT_MS);
      rendered.add(data.page);
      return page;
    } catch (err) {
      log.warn({ err, page: data.page }, 'a public page was not rendered on the server: the browser renders it');
      return null;
    }
  };
}
