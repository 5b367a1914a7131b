/** Scale: a synthetic 848-instance × 20-explorer workspace, figures printed as [timing] lines. */
import type { Case } from './support';

export const scaleCases: Case[] = [];
