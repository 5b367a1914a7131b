/** Deep links (URI handler, Copy Link) and added prediction runs. */
import type { Case } from './support';

export const linkCases: Case[] = [];
