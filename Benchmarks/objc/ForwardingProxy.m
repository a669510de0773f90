// The Objective-C reference for Fanout's peers: a multiplexer proxy built on
// respondsToSelector:, methodSignatureForSelector: and forwardInvocation:, as
// the original MultiplexerProxyBehavior did, over an NSArray of targets.
// Written for this project; built with gcc's Objective-C and GNUstep Base.
//
// Built as a shared library (Benchmarks/objc/build.sh) that bench loads with
// dlopen; see ObjCPeerFamily. It runs on GNUstep's runtime (gcc's libobjc and
// GNUstep Base), not Apple's.

#import <Foundation/Foundation.h>

@protocol ScrollViewDelegate
- (void)scrollViewDidScroll:(id)scrollView;
@end

@interface TallyTarget : NSObject <ScrollViewDelegate> {
@public
    long tally;
}
@end
@implementation TallyTarget
- (void)scrollViewDidScroll:(id)scrollView { tally++; }
@end

@interface OffsetTarget : NSObject <ScrollViewDelegate> {
@public
    long tally;
}
@end
@implementation OffsetTarget
- (void)scrollViewDidScroll:(id)scrollView { tally++; }
@end

@interface MultiplexerProxy : NSObject {
    NSArray *targets;
}
- (id)initWithTargets:(NSArray *)someTargets;
@end

@implementation MultiplexerProxy
- (id)initWithTargets:(NSArray *)someTargets {
    if ((self = [super init])) targets = [someTargets copy];
    return self;
}

- (void)dealloc {
    [targets release];
    [super dealloc];
}

- (BOOL)respondsToSelector:(SEL)selector {
    if ([super respondsToSelector:selector]) return YES;
    for (id target in targets)
        if ([target respondsToSelector:selector]) return YES;
    return NO;
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
    NSMethodSignature *signature = [super methodSignatureForSelector:selector];
    if (signature) return signature;
    for (id target in targets)
        if ([target respondsToSelector:selector]) return [target methodSignatureForSelector:selector];
    return nil;
}

- (void)forwardInvocation:(NSInvocation *)invocation {
    SEL selector = [invocation selector];
    for (id target in targets)
        if ([target respondsToSelector:selector]) [invocation invokeWithTarget:target];
}
@end

// The C interface `bench` loads with dlopen, so that the proxy's cases run in
// the bench's own process, interleaved with the Swift cases round by round.

void *fanout_objc_make_proxy(int width) {
    NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
    NSMutableArray *targets = [NSMutableArray array];
    for (int i = 0; i < width; i++) {
        id target = (i % 2 == 0) ? [[TallyTarget alloc] init] : [[OffsetTarget alloc] init];
        [targets addObject:target];
        [target release];
    }
    id proxy = [[MultiplexerProxy alloc] initWithTargets:targets];
    [pool drain];
    return proxy;
}

void *fanout_objc_make_view(void) { return [[NSObject alloc] init]; }

// Sends scrollViewDidScroll: `iterations` times through the proxy, inside one
// autorelease pool, as an event loop's turn would.
void fanout_objc_send(void *proxy, void *view, long iterations) {
    NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
    for (long i = 0; i < iterations; i++) [(id<ScrollViewDelegate>)proxy scrollViewDidScroll:(id)view];
    [pool drain];
}

void fanout_objc_release(void *object) { [(id)object release]; }
