// The slice of UIKit Fanout's Apple guide uses, written for this mock SDK: a scroll view and its delegate protocol,
// main-actor isolated as the SDK's are in Swift 6 (NS_SWIFT_UI_ACTOR), with optional methods.
#ifndef FANOUT_MOCK_UIKIT_H
#define FANOUT_MOCK_UIKIT_H
@import ObjectiveC;

#define UI_ACTOR __attribute__((swift_attr("@MainActor")))

#pragma clang assume_nonnull begin

@class UIScrollView;

UI_ACTOR
@interface UIView : NSObject
@end

UI_ACTOR
@protocol UIScrollViewDelegate <NSObject>
@optional
- (void)scrollViewDidScroll:(UIScrollView *)scrollView;
- (void)scrollViewDidEndDragging:(UIScrollView *)scrollView willDecelerate:(BOOL)decelerate;
- (BOOL)scrollViewShouldScrollToTop:(UIScrollView *)scrollView __attribute__((swift_name("scrollViewShouldScrollToTop(_:)")));
- (nullable UIView *)viewForZoomingInScrollView:(UIScrollView *)scrollView;
@end

UI_ACTOR
@interface UIScrollView : UIView
@property (nonatomic, weak, nullable) id<UIScrollViewDelegate> delegate;
@end

#pragma clang assume_nonnull end

#endif
