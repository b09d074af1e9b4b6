#include "state/color_map_table.h"

const std::vector<ColorMapStops> &colorMapTable()
{
    // Stops sampled from matplotlib's maps of the same names; "pastel blue" is seed 002's.
    static const std::vector<ColorMapStops> all = {
        {QStringLiteral("coolwarm"),
         {{0.0, QColor(59, 76, 192)},
          {0.25, QColor(141, 176, 254)},
          {0.5, QColor(221, 221, 221)},
          {0.75, QColor(244, 154, 123)},
          {1.0, QColor(180, 4, 38)}}},
        {QStringLiteral("viridis"),
         {{0.0, QColor(0x44, 0x01, 0x54)},
          {0.125, QColor(0x48, 0x28, 0x78)},
          {0.25, QColor(0x3e, 0x4a, 0x89)},
          {0.375, QColor(0x31, 0x68, 0x8e)},
          {0.5, QColor(0x26, 0x82, 0x8e)},
          {0.625, QColor(0x1f, 0x9e, 0x89)},
          {0.75, QColor(0x35, 0xb7, 0x79)},
          {0.875, QColor(0x6e, 0xce, 0x58)},
          {1.0, QColor(0xfd, 0xe7, 0x25)}}},
        {QStringLiteral("plasma"),
         {{0.0, QColor(0x0d, 0x08, 0x87)},
          {0.25, QColor(0x7e, 0x03, 0xa8)},
          {0.5, QColor(0xcc, 0x47, 0x78)},
          {0.75, QColor(0xf8, 0x95, 0x40)},
          {1.0, QColor(0xf0, 0xf9, 0x21)}}},
        {QStringLiteral("grey"), {{0.0, QColor(0, 0, 0)}, {1.0, QColor(255, 255, 255)}}},
        {QStringLiteral("pastel blue"), {{0.0, QColor(255, 255, 255)}, {1.0, QColor(0xa3, 0xc1, 0xda)}}},
        // Cyclic: its ends are one colour, so a phase of 2 pi meets 0 (the projection's phase:I).
        {QStringLiteral("twilight"),
         {{0.0, QColor(226, 217, 226)},
          {0.0625, QColor(196, 206, 212)},
          {0.125, QColor(149, 181, 199)},
          {0.1875, QColor(114, 151, 193)},
          {0.25, QColor(98, 118, 186)},
          {0.3125, QColor(94, 81, 173)},
          {0.375, QColor(89, 42, 143)},
          {0.4375, QColor(69, 19, 92)},
          {0.5, QColor(47, 20, 54)},
          {0.5625, QColor(74, 19, 66)},
          {0.625, QColor(116, 30, 79)},
          {0.6875, QColor(152, 53, 80)},
          {0.75, QColor(178, 86, 82)},
          {0.8125, QColor(194, 124, 99)},
          {0.875, QColor(204, 163, 137)},
          {0.9375, QColor(216, 199, 190)},
          {1.0, QColor(226, 217, 226)}}},
    };
    return all;
}

QStringList colorMapNames()
{
    QStringList out;
    for (const ColorMapStops &m : colorMapTable())
        out << m.name;
    return out;
}
