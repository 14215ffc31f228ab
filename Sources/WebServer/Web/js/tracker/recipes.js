// /tracker/recipes: the recipes, all or those for one miniature type (the tracker's filter,
// `recipe list --type`), each opening in the editor, each deletable (it is unlinked from its
// miniatures, which stay).
import { h, plural } from "../dom.js";
import { icon } from "../icons.js";
import * as api from "./api.js";
import { loading, capitalised } from "./frame.js";
import { deletableRow } from "./rows.js";

const FILTERS = [["", "All"], ["troop", "Troop"], ["character", "Character"]];

export async function showRecipes(body, { save }) {
  const wanted = new URLSearchParams(location.search).get("type") ?? "";
  const type = FILTERS.some(([v]) => v === wanted) ? wanted : "";
  const list = h("ul", { class: "tracker-rows", "aria-labelledby": "tracker-recipes-title" });
  const count = h("p", { class: "tracker-row-meta", role: "status" });
  const filter = h("fieldset", { class: "tracker-filter" }, h("legend", { text: "Show recipes for" }),
    FILTERS.map(([value, label]) => h("label", { class: "tracker-filter-option" },
      h("input", { type: "radio", name: "recipe-type", value, checked: value === type ? true : null }), h("span", { text: label }))));

  async function load(kind) {
    const recipes = await api.recipes(kind || null);
    list.replaceChildren(...recipes.map((r) => recipeRow(r, { save, onRemoved: () => load(currentType()) })));
    count.textContent = recipes.length
      ? plural(recipes.length, "recipe") + (kind ? ` for ${kind}s` : "")
      : kind ? `No recipes for ${kind}s.` : "No recipes yet: write the first with “New recipe”.";
  }
  const currentType = () => filter.querySelector("input:checked")?.value ?? "";
  filter.addEventListener("change", () => {
    const kind = currentType();
    history.replaceState(null, "", kind ? `/tracker/recipes?type=${kind}` : "/tracker/recipes");
    load(kind);
  });

  await loading(body, () => load(type), "Loading the recipes…");
  body.replaceChildren(
    h("div", { class: "tracker-head" }, h("h1", { id: "tracker-recipes-title", text: "Recipes" }),
      h("div", { class: "tracker-actions" }, h("a", { class: "button primary", href: "/tracker/recipes/new" }, icon("plus"), h("span", { text: "New recipe" })))),
    filter, count, list);
}

function recipeRow(recipe, { save, onRemoved }) {
  const content = h("a", { class: "tracker-row-main", href: `/tracker/recipes/${encodeURIComponent(recipe.id)}` },
    h("span", { class: "tracker-row-title", text: recipe.name }),
    h("span", { class: "tracker-row-meta", text: [recipe.type ? capitalised(recipe.type) : "Any type", plural(recipe.steps.length, "step"), plural(recipe.paints.length, "paint"), plural(recipe.techniques.length, "technique")].join(" · ") }));
  return deletableRow(content, {
    deleteLabel: `Delete the recipe ${recipe.name}`,
    confirm: { title: `Delete the recipe “${recipe.name}”?`, message: "It is unlinked from every miniature it is linked to; the miniatures stay. This cannot be undone." },
    onDelete: async () => { if (await save(() => api.removeRecipe(recipe.id))) await onRemoved(); },
  });
}
