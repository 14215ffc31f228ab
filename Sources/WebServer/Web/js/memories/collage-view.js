// One memory: the 1200×1500 collage as it is made (a loading state over the last one while the
// next renders), its seed, "Back" and the seeds shown so far, "Shuffle", "Save" (into the
// library's Collages/, only on that tap) and "Share" (the share sheet, else a download).
import { h, plural } from "../dom.js";
import { toast } from "../api.js";
import { icon } from "../icons.js";
import { thumbURL } from "../media.js";
import { makeCollage, saveCollage } from "./api.js";
import { memoriesIcon } from "./icons.js";
import { SeedHistory } from "./seeds.js";
import { shareOrDownload } from "./share.js";
import { rangeLabel } from "./source.js";

/**
 * Fills CONTAINER with the collage of SOURCE in RANGE, first with SEED (default 1, the CLI's).
 * onChooseAnother() goes back to the picker; onSeed(seed) when another seed is shown (for the
 * address); announce(text) speaks through the page's live region.
 */
export async function showCollage(container, { source, range, seed, onChooseAnother, onSeed, announce }) {
  const seeds = new SeedHistory(seed ?? "1");
  let busy = false;
  let failed = false;

  const heading = h("h1", { id: "memories-collage-title", tabindex: "-1", text: source.label });
  let img = h("img", { class: "mem-collage", alt: "", width: 1200, height: 1500, hidden: true });
  const spinner = h("div", { class: "mem-loading" },
    h("span", { class: "mem-spinner", "aria-hidden": "true" }), h("span", { class: "mem-loading-text", text: "Making the collage…" }));
  const problem = h("div", { class: "mem-problem", hidden: true });
  const figure = h("figure", { class: "mem-figure", "aria-busy": "true", "aria-labelledby": heading.id }, img, spinner, problem);
  const seedText = h("strong", { class: "mem-seed-value" });
  const back = button("Back", "undo", () => show(seeds.back()), "Show the collage before this one again");
  const shuffle = button("Shuffle", "shuffle", () => show(seeds.shuffle()), "A new seed: another choice and order of photos", "primary");
  const save = button("Save", "save", () => saveShown(), "Save this collage into the library's Collages folder");
  const share = button("Share", "share", () => shareShown(), "Share the JPEG, or download it where sharing is not offered");
  const status = h("p", { class: "mem-status", role: "status" });
  const seedList = h("ol", { class: "mem-seed-list" });
  const cells = h("ul", { class: "mem-cells" });
  const notes = h("ul", { class: "mem-notes" });
  const about = h("details", { class: "mem-about", hidden: true }, h("summary", { text: "Photos in this collage" }), cells, notes);
  // The cells' thumbnails are asked for only once the list is opened: a thumbnail not made yet
  // is made from the original, which would hold up the next collage for nothing.
  about.addEventListener("toggle", () => { if (about.open) showCellPictures(); });
  function showCellPictures() {
    for (const link of cells.querySelectorAll("a.mem-cell:not(:has(img))")) {
      const name = link.firstChild.textContent;
      link.replaceChildren(h("img", { alt: name, src: thumbURL(link.dataset.id, null, 256) }));
    }
  }
  const choose = h("button", { type: "button", class: "button mem-choose", on: { click: () => onChooseAnother() } },
    icon("arrowLeft"), "Choose another");

  container.replaceChildren(h("section", { class: "mem-view", "aria-labelledby": heading.id },
    h("div", { class: "mem-view-head" }, choose,
      h("p", { class: "eyebrow", text: `Memory · ${rangeLabel(range)}` }), heading),
    h("div", { class: "mem-layout" },
      h("div", { class: "mem-stage" }, figure),
      h("div", { class: "mem-panel" },
        h("p", { class: "mem-seed" }, "Seed ", seedText),
        h("div", { class: "mem-actions", role: "group", "aria-label": "Collage" }, shuffle, back, save, share),
        status,
        h("nav", { class: "mem-seeds", "aria-label": "Seeds shown" }, h("h2", { text: "Seeds shown" }), seedList),
        about))));

  function button(label, drawing, action, title, kind = "") {
    const b = h("button", { type: "button", class: `button ${kind}`.trim(), title }, memoriesIcon(drawing), label);
    b.addEventListener("click", () => { if (b.getAttribute("aria-disabled") !== "true" && !busy) action(); });
    return b;
  }

  function setBusy(on) {
    busy = on;
    figure.setAttribute("aria-busy", String(on));
    figure.classList.toggle("mem-busy", on);
    spinner.hidden = !on;
    for (const b of [shuffle, back, save, share]) b.setAttribute("aria-disabled", String(on || (b === back && !seeds.canGoBack) || (failed && b !== shuffle && b !== back)));
  }

  /** Makes (or finds) the collage of ENTRY's seed and shows it once its pixels are decoded. */
  async function show(entry) {
    setBusy(true);
    status.textContent = "";
    paintSeeds(entry);
    try {
      entry.answer ??= await makeCollage(source, range, entry.seed);
      await swapIn(entry).catch(async (error) => {
        if (error.gone !== true) throw error;
        entry.answer = await makeCollage(source, range, entry.seed); // the server let it go: the same seed again
        await swapIn(entry);
      });
      failed = false;
      problem.hidden = true;
      paintAnswer(entry);
      announce(`Collage of ${source.label}, seed ${entry.seed}, shown.`);
      onSeed?.(entry.seed);
    } catch (error) {
      failed = true;
      showProblem(error);
    } finally {
      if (seeds.current === entry) setBusy(false);
    }
  }

  /**
   * The collage's picture, decoded off screen, then put in the place of the one shown: the
   * render is sent no-store (nothing of an unsaved collage stays in the browser's cache), so
   * the decoded element itself is shown rather than its URL asked for a second time.
   */
  async function swapIn(entry) {
    const next = h("img", { class: "mem-collage", width: 1200, height: 1500, src: entry.answer.url,
      alt: `Collage of ${plural(entry.answer.cells.length, "photo")} of ${source.label}, seed ${entry.seed}` });
    try { await next.decode(); } catch { const error = new Error("the collage's picture could not be loaded"); error.gone = true; throw error; }
    if (seeds.current !== entry) return;
    next.dataset.seed = entry.seed;
    img.replaceWith(next);
    img = next;
  }

  function showProblem(error) {
    img.hidden = true;
    about.hidden = true;
    delete img.dataset.seed;
    problem.hidden = false;
    problem.replaceChildren(icon("alert"), h("h2", { text: "No collage" }), h("p", { text: error.message }),
      h("button", { type: "button", class: "button", on: { click: () => onChooseAnother() } }, "Choose another"));
    announce(`No collage: ${error.message}`);
  }

  function paintSeeds(entry) {
    seedText.textContent = entry.seed;
    seedList.replaceChildren(...seeds.entries.map((e, i) => h("li", {},
      h("button", { type: "button", class: "mem-seed-chip", "aria-current": e === entry ? "true" : null,
        "aria-label": `Seed ${e.seed}${e === entry ? " (shown)" : ""}`, on: { click: () => { if (!busy && e !== seeds.current) show(seeds.go(i)); } } },
      e.seed))));
  }

  function paintAnswer(entry) {
    const answer = entry.answer;
    cells.replaceChildren(...answer.cells.map((c, i) => h("li", {},
      h("a", { href: `/asset/${encodeURIComponent(c.asset_id)}`, class: "mem-cell", dataset: { id: c.asset_id } },
        h("span", { class: "visually-hidden", text: `Photo ${i + 1}: ${c.path.split("/").pop()}` })))));
    if (about.open) showCellPictures();
    notes.replaceChildren(...answer.notes.map((n) => h("li", { text: n })));
    about.hidden = false;
    paintSaved(entry);
  }

  function paintSaved(entry) {
    save.replaceChildren(memoriesIcon("save"), entry.saved ? "Saved" : "Save");
    save.classList.toggle("mem-saved", Boolean(entry.saved));
    status.replaceChildren(...(entry.saved
      ? ["Saved as ", h("a", { href: `/asset/${encodeURIComponent(entry.saved.asset_id)}`, text: entry.saved.path }), "."]
      : []));
  }

  /**
   * use(answer) on the shown collage's render; when the server no longer keeps it (404), the
   * same seed is made again (the same picture) and use is tried once more on the new render.
   */
  async function withRender(entry, use) {
    try {
      return await use(entry.answer);
    } catch (error) {
      if (error.status !== 404) throw error;
      entry.answer = await makeCollage(source, range, entry.seed);
      await swapIn(entry);
      return use(entry.answer);
    }
  }

  async function saveShown() {
    const entry = seeds.current;
    if (entry.saved) { paintSaved(entry); return; }
    setBusy(true);
    status.textContent = "Saving…";
    try {
      entry.saved = await withRender(entry, (answer) => saveCollage(answer.render));
      paintSaved(entry);
      toast(`Saved to Collages: ${entry.saved.path.split("/").pop()}`, { kind: "success" });
    } catch (error) {
      status.textContent = "";
      toast(`The collage was not saved: ${error.message}`, { kind: "error" });
    } finally {
      setBusy(false);
    }
  }

  async function shareShown() {
    const entry = seeds.current;
    setBusy(true);
    try {
      const how = await withRender(entry, (answer) => shareOrDownload(answer.url, answer.name, `Memory: ${source.label}`));
      if (how === "downloaded") toast(`Downloaded ${entry.answer.name}`, { kind: "success" });
      if (how === "shared") announce("Shared.");
    } catch (error) {
      toast(`The collage could not be shared: ${error.message}`, { kind: "error" });
    } finally {
      setBusy(false);
    }
  }

  heading.focus({ preventScroll: true });
  await show(seeds.current);
  return { shuffle: () => shuffle.click() };
}
