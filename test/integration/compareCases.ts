/** Compare mode: two explorers line by line in the editor and the Scores view. */
import type { Case } from './support';

export const compareCases: Case[] = [];
