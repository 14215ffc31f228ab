// Export (brief 002, requirement 8): everything, or one project with its miniatures, their photo
// references and the recipes linked to them, as JSON (one file) or CSV (one file per entity, in a
// zip) — the files `shoebox tracker export` writes, downloaded. Photos are referenced, never
// embedded. The file is fetched first, so a failure is said in words rather than saved as a file.
import { h } from "../dom.js";
import { openDialog } from "../dialog.js";
import { toast } from "../api.js";
import { exportURL } from "./api.js";

let counter = 0;

function radios(legend, name, options, checked) {
  return h("fieldset", { class: "tracker-choice" }, h("legend", { text: legend }),
    options.map(([value, label, detail]) => {
      counter += 1;
      const id = `tracker-export-${name}-${counter}`;
      return h("div", { class: "tracker-radio" },
        h("input", { type: "radio", name, id, value, checked: value === checked ? true : null }),
        h("label", { for: id }, h("span", { text: label }), detail ? h("span", { class: "tracker-hint", text: detail }) : null));
    }));
}

/** The export dialog; `project` ({id, title}) offers that project first. */
export function openExport({ project = null } = {}) {
  const scopes = [["all", "Everything", "Every project, miniature and recipe"]];
  if (project) scopes.unshift(["project", `This project: ${project.title}`, "Its miniatures, their photos and the recipes linked to them"]);
  const form = h("form", { class: "tracker-export-form" },
    radios("What", "scope", scopes, project ? "project" : "all"),
    radios("Format", "format", [["json", "JSON", "One file, easy to read back"], ["csv", "CSV", "One table per kind of record, in a zip; opens in a spreadsheet"]], "json"));
  const status = h("p", { class: "tracker-hint", role: "status" });
  const download = h("button", { type: "button", class: "button primary", text: "Download" });
  const cancel = h("button", { type: "button", class: "button", text: "Cancel", on: { click: () => dialog.close() } });
  form.append(status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const url = exportURL({ format: data.get("format"), project: data.get("scope") === "project" ? project.id : null });
    download.disabled = true;
    status.textContent = "Preparing the export…";
    try {
      await save(url);
      dialog.close();
      toast("Export downloaded. Photos are referenced by their path in the library, not included.", { kind: "success" });
    } catch (error) {
      status.textContent = `The export failed: ${error.message}`;
      download.disabled = false;
    }
  });
  download.addEventListener("click", (event) => { event.preventDefault(); form.requestSubmit(); });
  const dialog = openDialog({ title: "Export", description: "Photos are referenced by their path in the library, never embedded.", content: [form], actions: [cancel, download] });
}

/** Fetches `url` and hands it to the browser as a download under the name the server gives. */
async function save(url) {
  const response = await fetch(url);
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try { message = (await response.json()).error ?? message; } catch { /* not JSON */ }
    throw new Error(message);
  }
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const name = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? "") || "shoebox-tracker-export";
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = h("a", { href, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
