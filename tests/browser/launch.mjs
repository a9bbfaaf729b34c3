// The headless Chromium every browser test opens: Debian's (PDLD_CHROMIUM overrides), offline,
// no sandbox (CI runs as root), nothing that phones home.
import { chromium } from "playwright-core";

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.PDLD_CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}
