import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GroundcheckError } from '../../errors.js';

/**
 * The dashboard's static files (script and stylesheet), next to this module: in the clone
 * `src/capture/dashboard/public/`, in the package `dist/capture/dashboard/public/` (the build
 * copies them there; package.json's `files` ships `dist`).
 */
export const DASHBOARD_ASSETS_DIR = fileURLToPath(new URL('./public/', import.meta.url));

export const DASHBOARD_ASSET_FILES = ['dashboard.js', 'rates.js', 'dashboard.css'] as const;

/** @throws GroundcheckError `dashboard_assets_missing` when a file is not there (a build that did not copy them). */
export function checkDashboardAssets(dir: string = DASHBOARD_ASSETS_DIR): string {
  for (const file of DASHBOARD_ASSET_FILES) {
    if (!existsSync(join(dir, file))) {
      throw new GroundcheckError('dashboard_assets_missing', `the dashboard's ${file} is missing from ${dir}: the package was built without its static files (npm run build copies them)`);
    }
  }
  return dir;
}
