// app.js loads screens/<page>.js; this screen is a placeholder until its issue (placeholder.js).
export { show } from './placeholder.js';
