// Talking to Shoebox's server (/api/…) and telling the user what happened (toasts).
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { takePrefetched } from "./early.js";

// The page's token (web-api.md): sent with state-changing requests as well as the Origin the
// browser adds, so a request still passes where a proxy or an extension strips Origin.
function token() {
  return document.querySelector('meta[name="shoebox-token"]')?.content ?? "";
}

export { prefetchJSON } from "./early.js";

/** GET a JSON resource; throws an Error carrying the server's one-line `error` (and .status, .code). */
export async function getJSON(url, { signal } = {}) {
  // Asked for already by app.js (js/early.js) while the screen's modules were loading?
  const early = takePrefetched(url);
  if (early) return readJSON(await early);
  const response = await fetch(url, { headers: { Accept: "application/json" }, signal });
  return readJSON(response);
}

/**
 * POST a JSON body; same errors as getJSON. keepalive: the request is carried through even when
 * the page closes meanwhile (a decision made just before the tab closes is not lost).
 */
export async function postJSON(url, body = {}, { signal, keepalive = false } = {}) {
  const response = await fetch(url, {
    method: "POST",
    keepalive,
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-Shoebox-Token": token() },
    body: JSON.stringify(body),
    signal,
  });
  return readJSON(response);
}

async function readJSON(response) {
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const message = data?.error ?? (text.trim().split("\n")[0] || `${response.status} ${response.statusText}`);
    const error = new Error(message);
    error.status = response.status;
    error.code = data?.code ?? null;
    // The body field a refused value was given for (a form marks that input), when named.
    error.field = data?.field ?? null;
    throw error;
  }
  return data;
}

/**
 * POSTs one file's bytes to /api/upload?name=…, reporting progress (0…1) through onProgress.
 * XMLHttpRequest rather than fetch: fetch has no upload progress.
 */
export function uploadFile(file, onProgress = () => {}) {
  return postFile(`/api/upload?name=${encodeURIComponent(file.name)}`, file, onProgress, {
    lost: "the connection to Shoebox was lost",
    describe: (status) => (status === 413 ? "the file is larger than 2 GiB" : null),
  });
}

/**
 * POSTs FILE's bytes to URL with progress (0…1) through onProgress; resolves with the JSON
 * answer, or rejects with an Error whose message is the server's one line (else describe(status),
 * else the status), with `status` and `code` set. `lost`: the message when the connection drops.
 */
export function postFile(url, file, onProgress = () => {}, { lost = "the connection to Shoebox was lost", describe = () => null } = {}) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.setRequestHeader("X-Shoebox-Token", token());
    request.responseType = "text";
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      let data = null;
      try { data = JSON.parse(request.responseText); } catch { data = null; }
      if (request.status >= 200 && request.status < 300) { resolve(data); return; }
      const error = new Error(data?.error ?? describe(request.status) ?? `${request.status} ${request.statusText}`);
      error.status = request.status;
      error.code = data?.code ?? null;
      error.field = data?.field ?? null;
      reject(error);
    });
    request.addEventListener("error", () => reject(new Error(lost)));
    request.send(file);
  });
}

const TOAST_ICONS = { info: "info", success: "check", error: "alert", progress: "upload" };

/**
 * Shows a message in the page's polite live region (#toasts in app.html).
 * kind: "info" | "success" | "error" | "progress". Errors say "Error:" in words, not only in red.
 * timeout: ms before it leaves (0 = stays until close()); errors stay longer to be read.
 * Returns { update(message), progress(fraction), close() } so a long job can report in one toast.
 */
export function toast(message, { kind = "info", timeout } = {}) {
  const region = document.getElementById("toasts") ?? document.body;
  const body = h("div", { class: "toast-body" });
  const bar = kind === "progress" ? h("progress", { max: 1, value: 0, "aria-hidden": "true" }) : null;
  const element = h("div", { class: `toast ${kind}` }, icon(TOAST_ICONS[kind] ?? "info"), body);
  const setText = (text) => {
    body.replaceChildren(kind === "error" ? h("span", { class: "toast-kind", text: "Error: " }) : "", text, kind === "progress" && bar ? bar : "");
  };
  setText(message);
  region.append(element);
  let timer = null;
  const close = () => {
    clearTimeout(timer);
    element.classList.add("leaving");
    setTimeout(() => element.remove(), 320);
  };
  const schedule = (ms) => { clearTimeout(timer); if (ms > 0) timer = setTimeout(close, ms); };
  schedule(timeout ?? (kind === "error" ? 9000 : kind === "progress" ? 0 : 5000));
  return {
    update(text, { kind: newKind, timeout: ms } = {}) {
      if (newKind) { element.className = `toast ${newKind}`; element.firstChild.replaceWith(icon(TOAST_ICONS[newKind] ?? "info")); kind = newKind; }
      setText(text);
      if (ms !== undefined) schedule(ms);
    },
    progress(fraction) { if (bar) bar.value = fraction; },
    close,
  };
}

/** Runs an action and toasts its error (the server's one line) instead of letting it vanish. */
export async function attempt(action, failurePrefix = "") {
  try {
    return await action();
  } catch (error) {
    toast(failurePrefix ? `${failurePrefix}: ${error.message}` : error.message, { kind: "error" });
    return undefined;
  }
}
