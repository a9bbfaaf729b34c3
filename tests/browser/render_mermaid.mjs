// Renders Mermaid diagrams with the mermaid package from node_modules (no CDN) in one headless
// Chromium and prints one JSON list of {ok, error, svgChars, nodes, pageErrors}, a result per file.
// Usage: node render_mermaid.mjs DIAGRAM.mmd [MORE.mmd ...]
import { launchBrowser } from "./launch.mjs";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const sources = process.argv.slice(2).map((file) => readFileSync(file, "utf8"));
const browser = await launchBrowser();
try {
  const results = [];
  for (const source of sources) {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.setContent("<!doctype html><html><body><div id='out'></div></body></html>");
    await page.addScriptTag({ path: path.join(here, "node_modules", "mermaid", "dist", "mermaid.min.js") });
    const result = await page.evaluate(async (text) => {
      try {
        window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
        await window.mermaid.parse(text);
        const { svg } = await window.mermaid.render("pdld", text);
        document.getElementById("out").innerHTML = svg;
        return { ok: true, error: null, svgChars: svg.length, nodes: document.querySelectorAll("#out .node").length };
      } catch (error) {
        return { ok: false, error: String(error && error.message || error), svgChars: 0, nodes: 0 };
      }
    }, source);
    result.pageErrors = errors;
    results.push(result);
    await page.close();
  }
  console.log(JSON.stringify(results));
} finally {
  await browser.close();
}
