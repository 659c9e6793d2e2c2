import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What scripts/build.ts wrote about the client bundle (dist/client/manifest.json). */
export interface AssetManifest {
  entry: { file: string; integrity: string; imports: { file: string; integrity: string }[] };
}

export function readAssetManifest(clientDir: string): AssetManifest {
  const file = path.join(clientDir, 'manifest.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as AssetManifest;
  } catch (error) {
    throw new Error(`Cannot read ${file}: run "npm run build" first (${error instanceof Error ? error.message : String(error)})`);
  }
}
