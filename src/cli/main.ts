process.stdout.write('swe-explore: not yet implemented\n');
