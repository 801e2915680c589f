// error: 3:3
class A {
  accessor x = 1;
}
