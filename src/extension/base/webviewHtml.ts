/**
 * The one place webview HTML is written: a CSP of `default-src 'none'` with a fresh nonce for the
 * bundle's script, the bundle and its stylesheets from the extension's own folders, and an empty
 * root element the bundle fills with `textContent`-only DOM.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  /** The bundle in `dist/webview/`, e.g. `scores.js`. */
  readonly script: string;
  /** Stylesheets in `media/`, linked in this order (shared ones first, e.g. `common.css`, then the page's own). */
  readonly styles: readonly string[];
  readonly title: string;
  /** Id of the root element the bundle renders into. */
  readonly rootId: string;
  /** Allow images from the extension itself and `data:` URLs (the Scores curve); default: no images at all. */
  readonly images?: boolean;
}

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  // A fresh nonce per render: 16 random bytes, base64.
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', page.script));
  const styles = page.styles.map((name) => `  <link rel="stylesheet" href="${webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', name)).toString()}">`);
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`];
  if (page.images === true) csp.push(`img-src ${webview.cspSource} data:`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp.join('; ')};">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles.join('\n')}
  <title>${page.title}</title>
</head>
<body>
  <main id="${page.rootId}"></main>
  <script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/**
 * What every webview of the extension may do: run its bundle's script, and load files only from
 * the bundle and `media/` (never from the workspace, whose content is data).
 */
export function webviewOptions(extensionUri: vscode.Uri): { readonly enableScripts: true; readonly localResourceRoots: vscode.Uri[] } {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')] };
}

/** A short description of a rejected webview message for the log (never more than 200 characters). */
export function describeMessage(raw: unknown): string {
  try {
    const text = JSON.stringify(raw) ?? String(raw);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return typeof raw;
  }
}
