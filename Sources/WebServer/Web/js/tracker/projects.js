// /tracker: the projects, grouped by game system (the brief's order), then by army — the order
// `tracker project list` gives — each with its miniatures' progress; and the form that makes a
// new one. The game system is typed or picked from the three the tracker knows ("40k" is read as
// Warhammer 40K, as on the command line); whatever the tracker refuses is said under the field.
import { h, plural } from "../dom.js";
import { icon } from "../icons.js";
import * as api from "./api.js";
import { field, clearAll, clearOnInput, showFieldError } from "./forms.js";
import { loading, projectTitle } from "./frame.js";
import { deletableRow } from "./rows.js";

export async function showProjects(body, { save }) {
  const [projects, minis] = await loading(body, () => Promise.all([api.projects(), api.minis()]), "Loading your projects…");
  body.replaceChildren(
    h("div", { class: "tracker-head" }, h("h1", { text: "Projects" })),
    newProjectForm({ save }),
    projectGroups(projects, minis, { save, onRemoved: () => showProjects(body, { save }) }));
}

function newProjectForm({ save }) {
  const system = clearOnInput(h("input", { type: "text", list: "tracker-game-systems", autocomplete: "off", required: true }));
  const army = clearOnInput(h("input", { type: "text", autocomplete: "off", required: true }));
  const name = clearOnInput(h("input", { type: "text", autocomplete: "off" }));
  const systems = h("datalist", { id: "tracker-game-systems" }, api.GAME_SYSTEMS.map((s) => h("option", { value: s })));
  const create = h("button", { type: "submit", class: "button primary" }, icon("plus"), h("span", { text: "Create project" }));
  const form = h("form", { class: "tracker-card tracker-new", "aria-labelledby": "tracker-new-project", novalidate: true },
    h("h2", { id: "tracker-new-project", text: "New project" }),
    h("div", { class: "tracker-fields" },
      field("Game system", system, { name: "game_system", hint: api.GAME_SYSTEMS.join(", ") }),
      field("Army", army, { name: "army" }),
      field("Project name (optional)", name, { name: "name" })),
    systems, h("div", { class: "tracker-actions" }, create));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearAll(form);
    create.disabled = true;
    const made = await save(() => api.addProject({ game_system: system.value, army: army.value, name: name.value || null }),
      { onError: (error) => showFieldError(form, error) });
    create.disabled = false;
    if (made) window.location.assign(`/tracker/projects/${encodeURIComponent(made.id)}`);
  });
  return form;
}

/** The projects under a heading per game system, then per army (the list comes in that order). */
function projectGroups(projects, minis, { save, onRemoved }) {
  if (!projects.length) {
    return h("div", { class: "empty card tracker-empty" }, icon("tracker"),
      h("h2", { text: "No projects yet" }),
      h("p", { text: "A project is one army of one game system. Make the first with the form above; its miniatures, their progress and photos follow." }));
  }
  const sections = [];
  let system = null, army = null, list = null;
  for (const project of projects) {
    if (project.game_system !== system) {
      system = project.game_system; army = null;
      const id = `tracker-system-${sections.length}`;
      sections.push(h("section", { class: "tracker-system", "aria-labelledby": id }, h("h2", { id, text: system })));
    }
    if (project.army.toLowerCase() !== army) {
      army = project.army.toLowerCase();
      list = h("ul", { class: "tracker-rows", "aria-label": `${project.army} projects` });
      sections.at(-1).append(h("h3", { class: "tracker-army", text: project.army }), list);
    }
    list.append(projectRow(project, minis.filter((m) => m.project_id === project.id), { save, onRemoved }));
  }
  return h("div", { class: "tracker-groups" }, sections);
}

function projectRow(project, minis, { save, onRemoved }) {
  const done = minis.filter((m) => m.progress === "completed").length;
  const photos = minis.reduce((n, m) => n + m.photo_ids.length, 0);
  const title = projectTitle(project);
  const content = h("a", { class: "tracker-row-main", href: `/tracker/projects/${encodeURIComponent(project.id)}` },
    h("span", { class: "tracker-row-title", text: title }),
    h("span", { class: "tracker-row-meta", text: [project.name ? project.army : null, plural(minis.length, "miniature"), `${done} completed`].filter(Boolean).join(" · ") }),
    progressBar(minis));
  return deletableRow(content, {
    deleteLabel: `Delete the project ${title}`,
    confirm: {
      title: `Delete the project “${title}”?`,
      message: `Its ${plural(minis.length, "miniature")} and ${plural(photos, "photo")} are deleted with it (the photo files too). Recipes stay. This cannot be undone.`,
    },
    onDelete: async () => { if (await save(() => api.removeProject(project.id))) await onRemoved(); },
  });
}

/** How far a set of miniatures has come: each stage's share, drawn (the text says it too). */
export function progressBar(minis) {
  if (!minis.length) return null;
  const bar = h("span", { class: "tracker-progress", "aria-hidden": "true" });
  for (const stage of api.STAGES) {
    const n = minis.filter((m) => m.progress === stage).length;
    if (n) bar.append(h("span", { class: `tracker-progress-part stage-${stage}`, style: { flexGrow: String(n) } }));
  }
  return bar;
}
