#pragma once

#include <QString>

// Math in a figure's own texts (--title, --colorbar-label), as matplotlib's mathtext marks it:
// between dollar signs, \omega and the other Greek letters (\Omega capital), a few symbols (\cdot,
// \times, \pm, \leq, \geq, \approx, \infty, \sqrt, \ell, \prime, \propto), and sub- and superscripts
// (x_i, x_{2i}, 10^4, e^{-t}) set with Unicode's sub- and superscript characters. A script with a
// character Unicode has no small form for stays written out (x_{q} stays "x_{q}"): never a wrong
// letter. Outside dollar signs the text is kept as it is ("file_name_2", "$5" alone); "\$" is a
// dollar sign.
QString mathText(const QString &text);
