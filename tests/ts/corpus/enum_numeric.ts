enum Color { Red, Green, Blue }
console.log(Color.Red, Color.Blue, Color[1], Object.keys(Color));
