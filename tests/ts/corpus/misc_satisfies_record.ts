const routes = {
  home: "/",
  about: "/about",
} satisfies Record<string, `/${string}`>;
console.log(routes.about);
