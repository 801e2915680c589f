enum Dir { Up = "UP", Down = "DOWN" }
console.log(Dir.Up, Dir["Down"], Object.keys(Dir), JSON.stringify(Dir));
