// The projection view's settings: the method and t-SNE settings to and from its controls, its registry entry.
#include "views/projection_view.h"

#include "state/view_info/view_infos.h"
#include "state/view_registry.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

pe::ProjectionMethod ProjectionView::method() const
{
    return projectionMethodFrom(completeSettings(info().settings, settings()));
}

void ProjectionView::setMethod(pe::ProjectionMethod method)
{
    method_->setCurrentIndex(method_->findData(QString::fromUtf8(pe::projectionMethodName(method).data())));
}

pe::TsneSettings ProjectionView::tsneSettings() const
{
    return tsneSettingsFrom(completeSettings(info().settings, settings()));
}

pe::UmapSettings ProjectionView::umapSettings() const
{
    return umapSettingsFrom(completeSettings(info().settings, settings()));
}

int ProjectionView::components() const
{
    return componentsFrom(completeSettings(info().settings, settings()));
}

pe::ViewAngle ProjectionView::viewAngle() const
{
    return turning_ ? *turning_ : viewAngleFrom(completeSettings(info().settings, settings()));
}

void ProjectionView::setSettings(const pe::TsneSettings &s)
{
    perplexity_->setValue(s.perplexity);
    learningRate_->setValue(s.learningRate);
    iterations_->setValue(s.iterations);
    exaggeration_->setValue(s.earlyExaggeration);
    init_->setCurrentIndex(static_cast<int>(s.init));
    seed_->setValue(static_cast<int>(s.seed));
}
