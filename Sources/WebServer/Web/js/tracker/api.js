// The tracker's calls to the server (/api/tracker/…, docs/CONTRACT.md "The web app"): each is
// one entry point of the Tracker module, the one `shoebox tracker …` calls, answering in its
// --json shape. The page shows and asks; every rule (an empty name, a game system, a photo's
// format) is the module's, and its refusal comes back in words, naming the field it is about.
import { getJSON, postFile, postJSON } from "../api.js";

const at = (kind, id, verb = "") => `/api/tracker/${kind}/${encodeURIComponent(id)}${verb ? `/${verb}` : ""}`;

export const GAME_SYSTEMS = ["Age of Sigmar", "Warhammer 40K", "Horus Heresy"];
export const STAGES = ["unpainted", "primed", "basecoated", "detailed", "completed"];
export const TYPES = ["troop", "character"];

// Projects (`tracker project …`)
export const projects = () => getJSON("/api/tracker/projects");
export const project = (id) => getJSON(at("projects", id));
export const addProject = (fields) => postJSON("/api/tracker/projects", fields);
export const updateProject = (id, fields) => postJSON(at("projects", id, "update"), fields);
export const removeProject = (id) => postJSON(at("projects", id, "delete"));

// Miniatures (`tracker mini …`)
export const minis = (projectID) => getJSON(`/api/tracker/minis${projectID ? `?project=${encodeURIComponent(projectID)}` : ""}`);
export const mini = (id) => getJSON(at("minis", id));
export const addMini = (fields) => postJSON("/api/tracker/minis", fields);
export const updateMini = (id, fields) => postJSON(at("minis", id, "update"), fields);
export const removeMini = (id) => postJSON(at("minis", id, "delete"));

// Recipes (`tracker recipe …`)
export const recipes = (type) => getJSON(`/api/tracker/recipes${type ? `?type=${encodeURIComponent(type)}` : ""}`);
export const recipe = (id) => getJSON(at("recipes", id));
export const addRecipe = (fields) => postJSON("/api/tracker/recipes", fields);
export const updateRecipe = (id, fields) => postJSON(at("recipes", id, "update"), fields);
export const removeRecipe = (id) => postJSON(at("recipes", id, "delete"));
export const link = (recipeID, miniID) => postJSON(at("recipes", recipeID, "link"), { mini: miniID });
export const unlink = (recipeID, miniID) => postJSON(at("recipes", recipeID, "unlink"), { mini: miniID });

// Photos (`tracker photo …`)
export const photos = (miniID) => getJSON(at("minis", miniID, "photos"));
export const addLibraryPhoto = (miniID, assetID) => postJSON(at("minis", miniID, "photos/library"), { id: assetID });
export const removePhoto = (id) => postJSON(at("photos", id, "delete"));

/** The picture of a tracker photo: 256 or 1024 px, or (no size) as the browser can show it whole. */
export const photoURL = (id, size) => `/media/tracker/${encodeURIComponent(id)}${size ? `?size=${size}` : ""}`;

/** `tracker export` as a download's address: everything, or one project; json or csv (a zip). */
export const exportURL = ({ format, project }) =>
  `/api/tracker/export?format=${encodeURIComponent(format)}${project ? `&project=${encodeURIComponent(project)}` : ""}`;

/**
 * Sends a file's bytes to be a miniature's photo (POST …/photos?name=), reporting progress
 * (0…1). The tracker checks the content (JPEG, PNG, HEIC); its refusal is the Error's message.
 */
export function uploadPhoto(miniID, file, onProgress = () => {}) {
  return postFile(`${at("minis", miniID, "photos")}?name=${encodeURIComponent(file.name || "photo")}`, file, onProgress,
    { lost: "the connection to Shoebox was lost; the photo was not added" });
}
