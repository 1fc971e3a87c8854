console.log('sluice: the CLI is being built; see the README.');
