// /tracker/minis/ID: one miniature — its name (saved when changed), its progress stage (a picker
// whose every choice the tracker records with its time) and the history of those as a timeline,
// the recipes linked to it, its photos (photos.js), and Delete with its photos.
import { h, plural, setTitle } from "../dom.js";
import { icon } from "../icons.js";
import { confirmDialog } from "../dialog.js";
import * as api from "./api.js";
import { field, clearInvalid, clearOnInput, showFieldError } from "./forms.js";
import { loading, capitalised, formatWhen, projectTitle } from "./frame.js";
import { photoSection } from "./photos.js";

export async function showMini(body, id, { save, setProject }) {
  const mini = await loading(body, () => api.mini(id), "Loading the miniature…");
  const [project, recipes] = await Promise.all([api.project(mini.project_id), api.recipes()]);
  setProject(project);
  setTitle(`${mini.name} — Tracker`);
  const heading = h("h1", { text: mini.name });
  const remove = h("button", { type: "button", class: "button danger" }, icon("trash"), h("span", { text: "Delete miniature" }));
  const stages = stagePicker(mini);
  const timeline = h("ol", { class: "tracker-timeline", "aria-labelledby": "tracker-history-heading" });
  const linked = h("div", { class: "tracker-linked" });
  const state = { mini };
  const update = (changed) => {
    state.mini = changed;
    stages.paint(changed);
    paintTimeline(timeline, changed);
    paintRecipes(linked, changed, recipes, { save, update });
  };

  stages.onPick = async (stage) => {
    const changed = await save(() => api.updateMini(id, { progress: stage }));
    if (changed) update(changed);
  };
  remove.addEventListener("click", async () => {
    const photos = state.mini.photo_ids.length;
    const sure = await confirmDialog({
      title: `Delete the miniature “${state.mini.name}”?`,
      message: `Its progress history and ${plural(photos, "photo")} are deleted with it (the photo files too). This cannot be undone.`,
      confirm: "Delete", danger: true,
    });
    if (sure && await save(() => api.removeMini(id))) window.location.assign(`/tracker/projects/${encodeURIComponent(project.id)}`);
  });

  body.replaceChildren(
    h("p", { class: "sb-back" }, h("a", { href: `/tracker/projects/${encodeURIComponent(project.id)}` }, icon("arrowLeft"), projectTitle(project))),
    h("div", { class: "tracker-head" },
      h("div", {}, h("p", { class: "eyebrow", text: `${project.game_system} · ${project.army} · ${capitalised(mini.type)}` }), heading),
      h("div", { class: "tracker-actions" }, remove)),
    nameField(state, { save, onSaved: (m) => { state.mini.name = m.name; heading.textContent = m.name; setTitle(`${m.name} — Tracker`); } }),
    h("div", { class: "tracker-columns" },
      h("section", { class: "tracker-section", "aria-labelledby": "tracker-stage-heading" },
        h("h2", { id: "tracker-stage-heading", text: "Progress" }), stages.element,
        h("h3", { id: "tracker-history-heading", text: "History" }), timeline),
      h("section", { class: "tracker-section", "aria-labelledby": "tracker-recipes-heading" },
        h("h2", { id: "tracker-recipes-heading", text: "Recipes" }), linked)),
    photoSection(state.mini, { save, onChange: async () => update(await api.mini(id)) }));
  update(mini);
}

function nameField(state, { save, onSaved }) {
  const name = clearOnInput(h("input", { type: "text", value: state.mini.name, autocomplete: "off" }));
  const form = h("form", { class: "tracker-card tracker-fields", "aria-label": "Miniature details", novalidate: true }, field("Name", name, { name: "name" }));
  name.addEventListener("change", async () => {
    if (name.value === state.mini.name) return;
    clearInvalid(name);
    const saved = await save(() => api.updateMini(state.mini.id, { name: name.value }), { onError: (e) => showFieldError(form, e, name) });
    if (saved) { onSaved(saved); name.value = saved.name; }
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); name.blur(); });
  return form;
}

/**
 * The five stages as buttons, the miniature's own pressed. Pressing another records it (with the
 * time) at once; pressing the present one asks first, as it records a repaint.
 */
function stagePicker(mini) {
  const picker = { onPick: null };
  const buttons = api.STAGES.map((stage, i) => h("button", {
    type: "button", class: `tracker-stage-button stage-${stage}`, dataset: { stage },
    on: { click: async () => {
      const current = buttons.find((b) => b.getAttribute("aria-pressed") === "true")?.dataset.stage;
      if (stage === current && !await confirmDialog({ title: `Record “${capitalised(stage)}” again?`, message: "The miniature is at this stage already; recording it again adds it to the history with the time now (a repaint).", confirm: "Record again" })) return;
      picker.onPick?.(stage);
    } },
  }, h("span", { class: "tracker-stage-step", "aria-hidden": "true", text: String(i + 1) }), h("span", { text: capitalised(stage) })));
  picker.element = h("div", { class: "tracker-stages", role: "group", "aria-labelledby": "tracker-stage-heading", "aria-describedby": "tracker-stage-hint" },
    buttons, h("p", { class: "tracker-hint", id: "tracker-stage-hint", text: "Choosing a stage records it in the history with the time." }));
  picker.paint = (m) => {
    const reached = api.STAGES.indexOf(m.progress);
    buttons.forEach((b, i) => {
      b.setAttribute("aria-pressed", String(b.dataset.stage === m.progress));
      b.classList.toggle("reached", i <= reached);
    });
  };
  return picker;
}

function paintTimeline(list, mini) {
  list.replaceChildren(...mini.history.map((step, i) => h("li", { class: `stage-${step.progress}` },
    h("span", { class: "tracker-timeline-stage", text: capitalised(step.progress) }),
    h("time", { datetime: step.at, text: formatWhen(step.at) }),
    i === mini.history.length - 1 ? h("span", { class: "tracker-timeline-now", text: "now" }) : null)));
}

/** The recipes linked to the miniature (each unlinkable) and a picker of the others to link. */
function paintRecipes(box, mini, recipes, { save, update }) {
  const byID = new Map(recipes.map((r) => [r.id, r]));
  const linked = mini.recipe_ids.map((id) => byID.get(id)).filter(Boolean);
  const others = recipes.filter((r) => !mini.recipe_ids.includes(r.id));
  const pick = h("select", {}, h("option", { value: "", text: others.length ? "Choose a recipe…" : "No other recipes" }),
    others.map((r) => h("option", { value: r.id, text: r.type ? `${r.name} (${r.type})` : r.name })));
  const linkButton = h("button", { type: "submit", class: "button" }, icon("plus"), h("span", { text: "Link recipe" }));
  const form = h("form", { class: "tracker-link-form", novalidate: true }, field("Link a recipe", pick, { name: "recipe" }), linkButton);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!pick.value) { pick.focus(); return; }
    const changed = await save(() => api.link(pick.value, mini.id));
    if (changed) { update(changed); box.querySelector("select")?.focus(); }
  });
  box.replaceChildren(
    linked.length
      ? h("ul", { class: "tracker-plain-list", "aria-label": "Linked recipes" }, linked.map((r) => h("li", {},
          h("a", { href: `/tracker/recipes/${encodeURIComponent(r.id)}`, text: r.name }),
          h("span", { class: "tracker-row-meta", text: `${plural(r.steps.length, "step")}` }),
          h("button", { type: "button", class: "button quiet", "aria-label": `Unlink ${r.name}`, on: { click: async () => {
            const changed = await save(() => api.unlink(r.id, mini.id));
            if (changed) { update(changed); box.querySelector("select")?.focus(); }
          } } }, h("span", { text: "Unlink" })))))
      : h("p", { class: "tracker-hint", text: recipes.length ? "No recipe linked yet." : "No recipes yet: write one under Recipes, then link it here." }),
    recipes.length ? form : null);
}
