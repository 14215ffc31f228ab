// /tidy, /curate, /compose, /memories, /tracker: screens that later issues build. Until then
// each page says what it will do and which command does it today, so the nav never leads
// nowhere.

import { h, useStyles } from '../dom.js';

const SCREENS = {
  tidy: { title: 'Tidy', what: 'Going through your photos one at a time — keep, delete or maybe —', command: 'shoebox tidy' },
  curate: { title: 'Curate', what: 'Picking the best photos of a set by their scores and sharing them', command: 'shoebox curate' },
  compose: { title: 'Compose', what: 'Laying one to four photos out as a story picture', command: 'shoebox compose' },
  memories: { title: 'Memories', what: 'Collages of a year, a place or a person', command: 'shoebox memories' },
  tracker: { title: 'Tracker', what: 'Keeping track of painting projects, miniatures and recipes with their photos', command: 'shoebox tracker' },
};

/** The page name: the shell's <meta name="shoebox-page">, else the path's first segment. */
function pageName(params) {
  return params?.page
    ?? document.querySelector('meta[name="shoebox-page"]')?.content
    ?? location.pathname.split('/')[1];
}

export async function show(main, params) {
  useStyles('placeholder');
  const screen = SCREENS[pageName(params)] ?? { title: 'Coming soon', what: 'This screen', command: 'shoebox --help' };
  main.prepend(h('section', { class: 'sb-placeholder', 'aria-labelledby': 'placeholder-title' },
    h('h1', { id: 'placeholder-title', text: screen.title }),
    h('p', {},
      `${screen.what} is coming to this app. Today the command `,
      h('code', { text: screen.command }), ' does it; ',
      h('code', { text: `${screen.command} --help` }), ' says how.')));
}
