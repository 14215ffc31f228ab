// /tidy, /tidy/trash, /tidy/maybes (tidy-web.md): the swipe screen and the two piles, one page
// whose view follows location.pathname; moving between them is history.pushState, so the back
// button and a reload show the same view.
import { useStyles } from "../dom.js";
import { prefetchJSON } from "../api.js";
import { needsOnboarding, showOnboarding } from "../tidy/onboarding.js";
import { showPile } from "../tidy/piles.js";
import { showSwipe } from "../tidy/swipe.js";

const PILES = { "/tidy/trash": "trash", "/tidy/maybes": "maybes" };

const viewPath = (pathname) => pathname.replace(/\/+$/, "") || "/tidy";

export async function show(main) {
  useStyles("tidy");
  const first = needsOnboarding();
  // The session's first card is asked for while the modules and fonts arrive (not while the
  // onboarding is read: it could be long out of date by then).
  if (!first && viewPath(location.pathname) === "/tidy") prefetchJSON("/api/tidy");
  if (first) await showOnboarding(main);

  let view = null;
  let shown = 0;

  async function render({ initial } = {}) {
    const ticket = ++shown;
    view?.destroy?.();
    view = null;
    main.replaceChildren();
    const path = viewPath(location.pathname);
    main.classList.toggle("tidy-main", !PILES[path]);
    const made = PILES[path]
      ? await showPile(main, PILES[path], {
          onBack: () => navigate("/tidy"),
          onSwipeMaybes: (answer) => navigate("/tidy", { initial: answer }),
        })
      : await showSwipe(main, { navigate, initial });
    // A newer view may have been asked for while this one loaded.
    if (ticket === shown) view = made ?? null;
    else made?.destroy?.();
  }

  function navigate(path, options = {}) {
    if (viewPath(location.pathname) !== path) history.pushState({ tidy: path }, "", path);
    render(options).then(() => main.focus({ preventScroll: true }));
  }

  addEventListener("popstate", () => render());
  await render();
}
