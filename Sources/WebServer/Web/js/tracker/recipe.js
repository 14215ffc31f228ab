// /tracker/recipes/ID (and /tracker/recipes/new): the recipe editor — name, the miniature type it
// is for, its ordered steps, paints and techniques (lists.js) — every change saved at once; and
// the miniatures it is linked to, with a picker to link more. A new recipe is created by its
// first "Create recipe" (the tracker needs its name), then edited like any other.
import { h, plural, setTitle } from "../dom.js";
import { icon } from "../icons.js";
import { confirmDialog } from "../dialog.js";
import * as api from "./api.js";
import { field, clearAll, clearInvalid, clearOnInput, showFieldError } from "./forms.js";
import { loading, capitalised, projectTitle } from "./frame.js";
import { listEditor } from "./lists.js";

const LISTS = [["steps", "Steps", "step", true], ["paints", "Paints", "paint", false], ["techniques", "Techniques", "technique", false]];

export async function showRecipe(body, id, { save }) {
  const creating = id === null;
  const recipe = creating ? { name: "", type: null, steps: [], paints: [], techniques: [] }
    : await loading(body, () => api.recipe(id), "Loading the recipe…");
  setTitle(`${creating ? "New recipe" : recipe.name} — Tracker`);
  const heading = h("h1", { text: creating ? "New recipe" : recipe.name });
  const name = clearOnInput(h("input", { type: "text", value: recipe.name, autocomplete: "off", required: true }));
  const type = h("select", {}, h("option", { value: "", text: "Any type" }),
    api.TYPES.map((t) => h("option", { value: t, text: capitalised(t), selected: recipe.type === t ? true : null })));
  const form = h("form", { class: "tracker-card tracker-recipe-form", "aria-label": "Recipe", novalidate: true });
  const lists = {};
  const onError = (error) => {
    if (!lists[error.field]) return showFieldError(form, error);
    lists[error.field].showError(error.message);
    return true;
  };
  // An existing recipe: each change goes at once (one field, or one list whole).
  const change = async (fields, control) => {
    if (creating) return;
    if (control) clearInvalid(control);
    for (const key of Object.keys(fields)) lists[key]?.clearError();
    const saved = await save(() => api.updateRecipe(id, fields), { onError });
    if (saved) { Object.assign(recipe, saved); heading.textContent = saved.name; setTitle(`${saved.name} — Tracker`); }
  };
  for (const [key, title, one, ordered] of LISTS) {
    lists[key] = listEditor({ title, one, name: key, ordered, items: recipe[key], onCommit: (values) => change({ [key]: values }) });
  }
  name.addEventListener("change", () => { if (name.value !== recipe.name) change({ name: name.value }, name); });
  type.addEventListener("change", () => change({ type: type.value || null }));
  form.append(
    h("div", { class: "tracker-fields" }, field("Name", name, { name: "name" }), field("For miniatures of type", type, { name: "type" })),
    ...LISTS.map(([key]) => lists[key].element));

  const actions = h("div", { class: "tracker-actions" });
  if (creating) {
    const create = h("button", { type: "submit", class: "button primary" }, icon("check"), h("span", { text: "Create recipe" }));
    form.append(h("div", { class: "tracker-actions" }, create));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearAll(form);
      for (const list of Object.values(lists)) list.clearError();
      const made = await save(() => api.addRecipe({ name: name.value, type: type.value || null,
        steps: lists.steps.values(), paints: lists.paints.values(), techniques: lists.techniques.values() }), { onError });
      if (made) window.location.replace(`/tracker/recipes/${encodeURIComponent(made.id)}`);
    });
  } else {
    form.addEventListener("submit", (event) => { event.preventDefault(); document.activeElement?.blur?.(); });
    const remove = h("button", { type: "button", class: "button danger" }, icon("trash"), h("span", { text: "Delete recipe" }));
    remove.addEventListener("click", async () => {
      const sure = await confirmDialog({ title: `Delete the recipe “${recipe.name}”?`, message: "It is unlinked from every miniature it is linked to; the miniatures stay. This cannot be undone.", confirm: "Delete", danger: true });
      if (sure && await save(() => api.removeRecipe(id))) window.location.assign("/tracker/recipes");
    });
    actions.append(remove);
  }
  body.replaceChildren(
    h("p", { class: "sb-back" }, h("a", { href: "/tracker/recipes" }, icon("arrowLeft"), "All recipes")),
    h("div", { class: "tracker-head" }, h("div", {}, h("p", { class: "eyebrow", text: "Recipe" }), heading), actions),
    form,
    creating ? null : await linkedMinis(recipe, { save }));
  if (creating) name.focus();
}

/** The miniatures the recipe is linked to (each unlinkable), and a picker over the others. */
async function linkedMinis(recipe, { save }) {
  const box = h("section", { class: "tracker-section", "aria-labelledby": "tracker-linked-heading" });
  const [projects, minis] = await Promise.all([api.projects(), api.minis()]);
  const paint = () => {
    const linked = minis.filter((m) => m.recipe_ids.includes(recipe.id));
    const others = minis.filter((m) => !m.recipe_ids.includes(recipe.id));
    const pick = h("select", {}, h("option", { value: "", text: others.length ? "Choose a miniature…" : "No other miniatures" }),
      projects.map((p) => {
        const mine = others.filter((m) => m.project_id === p.id);
        return mine.length ? h("optgroup", { label: `${p.game_system} · ${projectTitle(p)}` }, mine.map((m) => h("option", { value: m.id, text: m.name }))) : null;
      }));
    const form = h("form", { class: "tracker-link-form", novalidate: true }, field("Link to a miniature", pick, { name: "mini" }),
      h("button", { type: "submit", class: "button" }, icon("plus"), h("span", { text: "Link" })));
    const swap = (changed) => { minis[minis.findIndex((m) => m.id === changed.id)] = changed; paint(); box.querySelector("select")?.focus(); };
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!pick.value) { pick.focus(); return; }
      const changed = await save(() => api.link(recipe.id, pick.value));
      if (changed) swap(changed);
    });
    box.replaceChildren(h("h2", { id: "tracker-linked-heading", text: "Linked miniatures" }),
      linked.length
        ? h("ul", { class: "tracker-plain-list", "aria-label": "Linked miniatures" }, linked.map((m) => h("li", {},
            h("a", { href: `/tracker/minis/${encodeURIComponent(m.id)}`, text: m.name }),
            h("span", { class: "tracker-row-meta", text: capitalised(m.progress) }),
            h("button", { type: "button", class: "button quiet", "aria-label": `Unlink ${m.name}`, on: { click: async () => {
              const changed = await save(() => api.unlink(recipe.id, m.id));
              if (changed) swap(changed);
            } } }, h("span", { text: "Unlink" })))))
        : h("p", { class: "tracker-hint", text: minis.length ? "Not linked to any miniature yet." : "No miniatures yet: add them to a project first." }),
      minis.length ? form : null,
      h("p", { class: "tracker-row-meta", text: plural(linked.length, "miniature") + " linked" }));
  };
  paint();
  return box;
}
