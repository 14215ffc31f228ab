// /tracker/projects/ID: one project — its army and name, edited in place and saved at once — its
// miniatures with their progress stage, the form that adds one, and Delete (with its miniatures
// and their photos, after a confirmation).
import { h, plural, setTitle } from "../dom.js";
import { icon } from "../icons.js";
import { confirmDialog } from "../dialog.js";
import * as api from "./api.js";
import { field, clearAll, clearInvalid, clearOnInput, showFieldError } from "./forms.js";
import { loading, capitalised, projectTitle } from "./frame.js";
import { deletableRow } from "./rows.js";
import { progressBar } from "./projects.js";

export async function showProject(body, id, { save, setProject }) {
  const [project, minis] = await loading(body, () => Promise.all([api.project(id), api.minis(id)]), "Loading the project…");
  setProject(project);
  setTitle(`${projectTitle(project)} — Tracker`);
  const heading = h("h1", { text: projectTitle(project) });
  const remove = h("button", { type: "button", class: "button danger" }, icon("trash"), h("span", { text: "Delete project" }));
  const list = h("ul", { class: "tracker-rows", "aria-labelledby": "tracker-minis-heading" });
  const count = h("p", { class: "tracker-row-meta" });
  const redraw = async () => paintMinis(list, count, await api.minis(id), { save, redraw });

  remove.addEventListener("click", async () => {
    const all = await api.minis(id);
    const photos = all.reduce((n, m) => n + m.photo_ids.length, 0);
    const sure = await confirmDialog({
      title: `Delete the project “${projectTitle(project)}”?`,
      message: `Its ${plural(all.length, "miniature")} and ${plural(photos, "photo")} are deleted with it (the photo files too). Recipes stay. This cannot be undone.`,
      confirm: "Delete", danger: true,
    });
    if (sure && await save(() => api.removeProject(id))) window.location.assign("/tracker");
  });

  body.replaceChildren(
    h("p", { class: "sb-back" }, h("a", { href: "/tracker" }, icon("arrowLeft"), "All projects")),
    h("div", { class: "tracker-head" },
      h("div", {}, h("p", { class: "eyebrow", text: project.game_system }), heading),
      h("div", { class: "tracker-actions" }, remove)),
    projectFields(project, { save, onSaved: (p) => { Object.assign(project, p); heading.textContent = projectTitle(p); setTitle(`${projectTitle(p)} — Tracker`); } }),
    h("section", { class: "tracker-section", "aria-labelledby": "tracker-minis-heading" },
      h("h2", { id: "tracker-minis-heading", text: "Miniatures" }), count, list,
      newMiniForm(id, { save, onAdded: redraw })));
  paintMinis(list, count, minis, { save, redraw });
}

/** Army and name, each saved when it changes (leaving the field, or Enter). */
function projectFields(project, { save, onSaved }) {
  const army = clearOnInput(h("input", { type: "text", value: project.army, autocomplete: "off" }));
  const name = clearOnInput(h("input", { type: "text", value: project.name ?? "", autocomplete: "off" }));
  const form = h("form", { class: "tracker-card tracker-fields", "aria-label": "Project details", novalidate: true },
    field("Army", army, { name: "army" }),
    field("Project name", name, { name: "name", hint: "Optional; empty shows the army" }));
  const commit = async (control, key) => {
    const value = control.value;
    if ((key === "name" ? project.name ?? "" : project[key]) === value) return;
    clearInvalid(control);
    const saved = await save(() => api.updateProject(project.id, { [key]: value }), { onError: (e) => showFieldError(form, e, control) });
    if (saved) { onSaved(saved); if (key === "army") control.value = saved.army; }
  };
  army.addEventListener("change", () => commit(army, "army"));
  name.addEventListener("change", () => commit(name, "name"));
  form.addEventListener("submit", (event) => { event.preventDefault(); document.activeElement?.blur?.(); });
  return form;
}

function paintMinis(list, count, minis, { save, redraw }) {
  count.textContent = minis.length
    ? `${plural(minis.length, "miniature")} · ${minis.filter((m) => m.progress === "completed").length} completed`
    : "No miniatures yet: add the first below.";
  const bar = progressBar(minis);
  count.replaceChildren(count.textContent, bar ?? "");
  list.replaceChildren(...minis.map((mini) => miniRow(mini, { save, redraw })));
}

function miniRow(mini, { save, redraw }) {
  const content = h("a", { class: "tracker-row-main", href: `/tracker/minis/${encodeURIComponent(mini.id)}` },
    h("span", { class: "tracker-row-title", text: mini.name }),
    h("span", { class: "tracker-row-meta", text: [capitalised(mini.type), plural(mini.photo_ids.length, "photo"), plural(mini.recipe_ids.length, "recipe")].join(" · ") }),
    h("span", { class: `tracker-stage stage-${mini.progress}`, text: capitalised(mini.progress) }));
  return deletableRow(content, {
    deleteLabel: `Delete the miniature ${mini.name}`,
    confirm: {
      title: `Delete the miniature “${mini.name}”?`,
      message: `Its progress history and ${plural(mini.photo_ids.length, "photo")} are deleted with it (the photo files too). This cannot be undone.`,
    },
    onDelete: async () => { if (await save(() => api.removeMini(mini.id))) await redraw(); },
  });
}

function newMiniForm(projectID, { save, onAdded }) {
  const name = clearOnInput(h("input", { type: "text", autocomplete: "off", required: true }));
  const type = h("select", {}, api.TYPES.map((t) => h("option", { value: t, text: capitalised(t) })));
  const add = h("button", { type: "submit", class: "button primary" }, icon("plus"), h("span", { text: "Add miniature" }));
  const form = h("form", { class: "tracker-card tracker-new", "aria-labelledby": "tracker-new-mini", novalidate: true },
    h("h3", { id: "tracker-new-mini", text: "Add a miniature" }),
    h("div", { class: "tracker-fields" }, field("Name", name, { name: "name" }), field("Type", type, { name: "type" })),
    h("div", { class: "tracker-actions" }, add));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearAll(form);
    add.disabled = true;
    const made = await save(() => api.addMini({ project: projectID, name: name.value, type: type.value }), { onError: (e) => showFieldError(form, e) });
    add.disabled = false;
    if (!made) return;
    name.value = "";
    await onAdded();
    name.focus();
  });
  return form;
}
