/** What a door prints in a terminal: the report's text without markdown's marks (stages/report/terminal.ts). */
export { forTerminal } from '../../stages/report/terminal.js';
