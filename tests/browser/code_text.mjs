// Opens an HTML report in headless Chromium and prints, as JSON, the text a person selects and
// copies from each table's code cell (innerText: as rendered, so collapsed spaces would show).
// Usage: node code_text.mjs REPORT.html
import { launchBrowser } from "./launch.mjs";
import { pathToFileURL } from "node:url";

const [, , reportPath] = process.argv;
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(pathToFileURL(reportPath).href, { waitUntil: "load" });
  console.log(JSON.stringify(await page.$$eval("td code", (cells) => cells.map((cell) => cell.innerText))));
} finally {
  await browser.close();
}
