// Copies the page and the graph library into the jar's static folder (argument: the output folder).
// No bundler: the page is plain ES2020 that Chromium and Firefox run as is; Cytoscape.js ships a
// minified build. Nothing is fetched at run time.
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, 'dist');
mkdirSync(out, { recursive: true });
cpSync(join(here, 'src'), out, { recursive: true });
cpSync(join(here, 'node_modules/cytoscape/dist/cytoscape.min.js'), join(out, 'cytoscape.min.js'));
console.log(`sluice-web: page and cytoscape.min.js in ${out}`);
