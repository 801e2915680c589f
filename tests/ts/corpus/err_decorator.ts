// error: 3:3
class A {
  @dec m() {}
}
