#!/usr/bin/env node
// The CLI's front door: everything happens in cli/commands.ts.
import { cli } from './cli/commands.js';

process.exitCode = await cli(process.argv.slice(2));
