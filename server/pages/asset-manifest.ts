import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ScriptChunk {
  /** Its public path, /assets/<name>-<hash>.js. */
  file: string;
  /** Subresource integrity, sha384. */
  integrity: string;
}

/** What scripts/build.ts wrote about the client bundle (dist/client/manifest.json). */
export interface AssetManifest {
  /** The page's one script (client/entry.client.ts, built), inlined into every page. */
  entry: { script: string };
  /** The app (client/start.client.tsx) first, then every chunk it imports: each page loads them. */
  app: ScriptChunk[];
  /** Per route path, the chunks of its page that a first visit needs beyond `app`. */
  routes: Record<string, ScriptChunk[]>;
}

export function readAssetManifest(clientDir: string): AssetManifest {
  const file = path.join(clientDir, 'manifest.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as AssetManifest;
  } catch (error) {
    throw new Error(`Cannot read ${file}: run "npm run build" first (${error instanceof Error ? error.message : String(error)})`);
  }
}
