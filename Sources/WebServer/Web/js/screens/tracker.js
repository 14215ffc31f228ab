// /tracker and the pages below it (brief 002, the painting tracker): one screen whose view
// follows the path — /tracker the projects, /tracker/projects/ID one project, /tracker/minis/ID
// one miniature, /tracker/recipes the recipes, /tracker/recipes/ID (or /new) the recipe editor.
// Moving between them is an ordinary link (the back button, a reload and a bookmark all land
// where they should). Every change is sent at once; the frame's saved state says how it went.
import { h, useStyles } from "../dom.js";
import { frame, projectTitle } from "../tracker/frame.js";
import { showProjects } from "../tracker/projects.js";
import { showProject } from "../tracker/project.js";
import { showMini } from "../tracker/mini.js";
import { showRecipes } from "../tracker/recipes.js";
import { showRecipe } from "../tracker/recipe.js";

/** The view a path names: [view, id]. */
export function route(pathname) {
  const parts = pathname.replace(/\/+$/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[1] === "projects" && parts[2]) return ["project", parts[2]];
  if (parts[1] === "minis" && parts[2]) return ["mini", parts[2]];
  if (parts[1] === "recipes") return parts[2] ? ["recipe", parts[2] === "new" ? null : parts[2]] : ["recipes", null];
  return ["projects", null];
}

export async function show(main) {
  useStyles("tracker");
  const [view, id] = route(location.pathname);
  let project = null;
  const { body, save, fail } = frame(main, {
    section: view.startsWith("recipe") ? "recipes" : "projects",
    project: () => (project ? { id: project.id, title: projectTitle(project) } : null),
  });
  const context = { save, fail, setProject: (p) => { project = p; } };
  try {
    if (view === "project") await showProject(body, id, context);
    else if (view === "mini") await showMini(body, id, context);
    else if (view === "recipes") await showRecipes(body, context);
    else if (view === "recipe") await showRecipe(body, id, context);
    else await showProjects(body, context);
  } catch (error) {
    body.removeAttribute("aria-busy");
    body.replaceChildren(h("div", { class: "empty card", role: "alert" },
      h("h1", { text: error.status === 404 ? "Not in the tracker" : "The tracker could not be shown" }),
      h("p", { text: error.message }),
      h("p", {}, h("a", { href: "/tracker", text: "All projects" }))));
  }
}
