// Opens an HTML report in headless Chromium and prints what a person would see, as JSON:
// console errors, network requests, lanes, marks, links, the detail shown after clicking the
// root mark, whether the timeline fits a 1280x800 window, and a screenshot.
// Usage: node check_report.mjs REPORT.html SCREENSHOT.png
import { launchBrowser } from "./launch.mjs";
import { pathToFileURL } from "node:url";

const [, , reportPath, screenshotPath] = process.argv;
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  const requests = [];
  page.on("console", (message) => { if (message.type() === "error") errors.push(message.text()); });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("file:") && !url.startsWith("data:")) requests.push(url);
  });
  const started = Date.now();
  await page.goto(pathToFileURL(reportPath).href, { waitUntil: "load" });
  await page.locator("[data-lane]").first().waitFor({ timeout: 10000 });
  const openMs = Date.now() - started;
  const lanes = await page.locator("[data-lane]").count();
  const counts = await page.$$eval("[data-mark]", (marks) => marks.map((mark) => Number(mark.dataset.count)));
  const links = await page.locator("[data-link]").count();
  const roots = page.locator("[data-mark][data-root]");
  const rootMarks = await roots.count();
  let detail = "";
  if (rootMarks > 0) {
    await roots.first().locator("circle, rect").first().click();
    detail = await page.locator("#detail").innerText();
  }
  const timelineBottom = await page.evaluate(() => document.querySelector("#lanes").getBoundingClientRect().bottom);
  await page.screenshot({ path: screenshotPath });
  await page.click("[data-zoom=in]");
  const marksAfterZoomIn = await page.locator("[data-mark]").count();
  await page.click("[data-zoom=reset]");
  const marksAfterReset = await page.locator("[data-mark]").count();
  const domNodes = await page.evaluate(() => document.getElementsByTagName("*").length);
  console.log(JSON.stringify({
    errors, requests, openMs, lanes, marks: counts.length, markedEvents: counts.reduce((a, b) => a + b, 0), links,
    rootMarks, detail, timelineBottom, marksAfterZoomIn, marksAfterReset, domNodes,
  }));
} finally {
  await browser.close();
}
