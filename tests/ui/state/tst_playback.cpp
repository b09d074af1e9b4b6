#include "state/parameters.h"
#include "state/playback.h"
#include "test_support.h"

#include <QSignalSpy>
#include <QTest>

class TestPlayback : public QObject
{
    Q_OBJECT

  private slots:
    void playAdvancesPosition();
    void pauseStops();
    void loopWraps();
    void withoutLoopTheWindowSlides();
    void speedIsBounded();
};

void TestPlayback::playAdvancesPosition()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(1000, 8, 1e4)));
    Playback play(&p);
    QSignalSpy moved(&p, &Parameters::positionChanged);
    QSignalSpy playing(&play, &Playback::playingChanged);
    play.setSpeed(200);
    play.play();
    QCOMPARE(playing.count(), 1);
    QTRY_VERIFY(moved.count() >= 5);
    QVERIFY(p.position() >= 5);
    play.pause();
}

void TestPlayback::pauseStops()
{
    Parameters p;
    Playback play(&p);
    play.setSpeed(200);
    play.toggle();
    QVERIFY(play.isPlaying());
    play.toggle();
    QVERIFY(!play.isPlaying());
    const auto at = p.position();
    QTest::qWait(100);
    QCOMPARE(p.position(), at);
}

void TestPlayback::loopWraps()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(10, 8, 1e4, 100)));
    Playback play(&p);
    QVERIFY(p.setPosition(108));
    play.advance(1);
    QCOMPARE(p.position(), 109);
    play.advance(1);
    QCOMPARE(p.position(), 100); // back to start_pos, the window unchanged
    QCOMPARE(p.values().startPos, 100);
    play.advance(25);
    QCOMPARE(p.position(), 105);
}

void TestPlayback::withoutLoopTheWindowSlides()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(10, 8, 1e4, 100)));
    Playback play(&p);
    play.setLoop(false);
    QVERIFY(p.setPosition(109));
    QSignalSpy changed(&p, &Parameters::changed);
    play.advance(3);
    QCOMPARE(p.position(), 112);
    QCOMPARE(p.values().startPos, 103); // the position is the window's last row
    QCOMPARE(changed.count(), 1);
}

void TestPlayback::speedIsBounded()
{
    Parameters p;
    Playback play(&p);
    play.setSpeed(1e9);
    QCOMPARE(play.speed(), Playback::kMaxSpeed);
    play.setSpeed(0);
    QCOMPARE(play.speed(), Playback::kMinSpeed);
}

QTEST_MAIN(TestPlayback)
#include "tst_playback.moc"
