// ClockFaces: the clocks view's faces, painted once per grid into an image (or drawn as vectors).
#pragma once

#include "analysis/clock.h"

#include <qcustomplot.h>

#include <QImage>

#include <tuple>
#include <vector>

// The clock faces with their start ticks and hubs. Stroking a thousand circles costs tens of
// milliseconds, and they only change with the grid, so on screen they are painted once into an
// image at device resolution and the image is drawn on every frame; vector output (PDF, SVG) gets
// them drawn directly.
class ClockFaces : public QCPLayerable
{
  public:
    ClockFaces(QCPAxis *x, QCPAxis *y)
        : QCPLayerable(x->parentPlot(), QStringLiteral("main"))
        , x_(x)
        , y_(y)
    {
    }

    void setGrid(int rows, int cols, double radius, pe::ClockFace face, double lineScale);
    // Faces at these centres (plot coordinates) instead of every cell of the grid, which then only
    // gives the radius, face and line scale: the grid view's blocks of clocks, one a coordinate.
    void setCentres(std::vector<QPointF> centres);

    // RoPE: each column's arc swept over the trained context (pe::trainedSweep), shaded on its
    // faces; empty for none.
    void setArcs(std::vector<double> sweeps);

  protected:
    QRect clipRect() const override { return x_->axisRect()->rect(); }
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override
    {
        applyAntialiasingHint(painter, true, QCP::aeOther);
    }

    void draw(QCPPainter *painter) override;

  private:
    // The pixels the faces cover: the plot's rect, or the cells around the centres when given.
    QRect facesRect() const;
    void paint(QPainter &p) const;
    QColor ink() const;

    QCPAxis *x_;
    QCPAxis *y_;
    int rows_ = 0;
    int cols_ = 0;
    double radius_ = 0.42;
    pe::ClockFace face_ = pe::ClockFace::Clockwise;
    double lineScale_ = 1;
    std::vector<double> sweeps_;
    std::vector<QPointF> centres_;
    QImage cache_;
    std::tuple<QRect, double, double, double, double, double, QRgb> cacheKey_;
};
