const s = 'Straße ǅ \u{1F600} \ud800'; console.log(s.toUpperCase(), s.normalize('NFD').length, s.localeCompare('a'), s.isWellFormed(), s.toWellFormed());
console.log('abc'.padStart(10, '12').at(-1), 'a-b-c'.split('-', 2), `t${1 + 1}`, String.raw`\n`, 'x'.repeat(5).replaceAll('x', '$&y'));
